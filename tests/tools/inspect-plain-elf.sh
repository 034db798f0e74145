#!/bin/sh
# popcorn-inspect on an executable popcorn-clang did not build (one of the
# tools, built by the build machine's compiler) says so, for every command
# that needs a multi-ISA executable.
#
#   inspect-plain-elf.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
plain=$bin/popcorn-ctl
fail=0
for command in layout verify callsites; do
	status=0
	"$bin/popcorn-inspect" $command "$plain" >/dev/null 2>stderr.txt || status=$?
	echo "popcorn-inspect $command popcorn-ctl: exit status $status"
	cat stderr.txt
	if [ "$status" -ne 1 ] || ! grep -q "popcorn-ctl has no aarch64 image: it was not built by popcorn-clang" stderr.txt; then
		echo "FAIL: expected exit status 1 and 'it was not built by popcorn-clang'"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "ok: a plain executable is named as such"
exit $fail
