#!/bin/sh
# -print-search-dirs names popcorn's programs and its sysroot's libraries
# (libc, crt1.o), not the build machine's.
#
#   print-search-dirs.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
status=0
"$bin/popcorn-clang" -print-search-dirs >dirs.txt 2>&1 || status=$?
cat dirs.txt
if [ $status -ne 0 ]; then
	echo "FAIL: popcorn-clang -print-search-dirs: exit status $status"
	exit 1
fi
programs=$(sed -n 's,^programs: =,,p' dirs.txt)
libraries=$(sed -n 's,^libraries: =,,p' dirs.txt)
fail=0
if [ ! -x "$programs/popcorn-ld" ]; then
	echo "FAIL: the programs directory has no popcorn-ld"
	fail=1
fi
for file in libc.a crt1.o libpopcorn.a; do
	if [ ! -f "$libraries/$file" ]; then
		echo "FAIL: the libraries directory has no $file"
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "ok: popcorn's search directories"
exit $fail
