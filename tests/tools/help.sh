#!/bin/sh
# Every tool the build puts in BIN_DIR answers --help and -h with a usage
# text on stdout, nothing on stderr, and exit status 0.
#
#   help.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
fail=0 tools=0
for tool in "$bin"/*; do
	[ -f "$tool" ] && [ -x "$tool" ] || continue
	tools=$((tools + 1))
	for option in --help -h; do
		name="$(basename "$tool") $option"
		status=0
		"$tool" $option >"$work/stdout" 2>"$work/stderr" </dev/null || status=$?
		if [ "$status" -ne 0 ]; then
			echo "FAIL: $name: exit status $status"
			fail=1
		fi
		if ! grep -qi '^usage:' "$work/stdout"; then
			echo "FAIL: $name: no usage text on stdout"
			fail=1
		fi
		if [ -s "$work/stderr" ]; then
			echo "FAIL: $name wrote on stderr:"
			cat "$work/stderr"
			fail=1
		fi
	done
done
if [ "$tools" -lt 6 ]; then
	echo "FAIL: only $tools tools in $bin"
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: $tools tools answer --help and -h"
exit $fail
