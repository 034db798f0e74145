#!/bin/sh
# Code compiled for another target never becomes part of a multi-ISA
# program: popcorn-llc refuses IR made for x86-64 (whose long double and
# calling conventions every ISA would then get), and a link refuses a plain
# x86-64 object.
#
#   foreign-ir.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2 clang=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
cat >half.c <<'SOURCE'
long double half(long double x)
{
	return x / 2;
}
SOURCE
fail=0

"$clang" --target=x86_64-linux-gnu -O2 -emit-llvm -c half.c -o half.bc
status=0
"$bin/popcorn-llc" -O2 half.bc -o half.o 2>stderr.txt || status=$?
echo "popcorn-llc on x86-64 IR: exit status $status"
cat stderr.txt
if [ "$status" -ne 1 ] || [ -e half.o ] ||
	! grep -q "half.bc: the IR of 'half.c' was compiled for x86_64-unknown-linux-gnu, not aarch64-unknown-linux-musl" stderr.txt; then
	echo "FAIL: popcorn-llc did not refuse x86-64 IR, naming its source and target"
	fail=1
fi

"$clang" --target=x86_64-linux-gnu -O2 -c half.c -o plain.o
printf 'long double half(long double);\nint main(void) { return half(4) != 2; }\n' >main.c
status=0
"$bin/popcorn-clang" main.c plain.o -o prog 2>stderr.txt || status=$?
echo "popcorn-clang linking a plain x86-64 object: exit status $status"
cat stderr.txt
if [ "$status" -ne 1 ] || [ -e prog ] || ! grep -q "plain.o was not compiled by popcorn-clang" stderr.txt; then
	echo "FAIL: the link did not refuse a plain x86-64 object"
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: code for another target is refused"
exit $fail
