#!/bin/sh
# popcorn-inspect callsites --function NAME fails when no call site is in a
# function of that name, and lists those of a function that has some.
#
#   callsites-no-function.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
cat >prog.c <<'PROG'
#include <stdio.h>
int main(void)
{
	puts("hello");
	return 0;
}
PROG
"$bin/popcorn-clang" -O2 prog.c -o prog
fail=0
status=0
"$bin/popcorn-inspect" callsites prog --function NOSUCH >stdout.txt 2>stderr.txt || status=$?
cat stderr.txt
if [ "$status" -ne 1 ] || ! grep -q "prog has no call site in a function named 'NOSUCH'" stderr.txt; then
	echo "FAIL: --function NOSUCH: exit status $status, expected 1 and the function named"
	fail=1
fi
if ! "$bin/popcorn-inspect" callsites prog --function main >stdout.txt ||
	! grep -q " in main line 4:" stdout.txt; then
	echo "FAIL: --function main did not list main's call site at line 4"
	cat stdout.txt
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: --function NOSUCH is an error"
exit $fail
