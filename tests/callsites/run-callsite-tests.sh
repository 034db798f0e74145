#!/bin/sh
# Call-site metadata tests of one multi-ISA build:
#   1. popcorn-inspect callsites lists records on every ISA, and verify
#      accepts a normal build;
#   2. a deliberately mismatched multi-ISA object (its aarch64 part compiled
#      from other source) makes the link fail, naming the function.
#
#   run-callsite-tests.sh BIN_DIR LLVM_OBJCOPY SOURCE_DIR WORK_DIR
set -eu
bin=$1 objcopy=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work"
cp "$src/mismatch.c" prog.c

"$bin/popcorn-clang" -O2 prog.c -o prog
"$bin/popcorn-inspect" verify prog
# work calls helper twice: two call sites on each ISA.
for isa in x86_64 aarch64; do
	"$bin/popcorn-inspect" callsites prog --isa $isa --function work >sites.$isa.txt
	grep -q "^$isa: " sites.$isa.txt || { echo "FAIL: no $isa call sites listed"; exit 1; }
	# Only the sites under this ISA's own heading count.
	n=$(awk -v isa="$isa:" '/^[^ ]/ { mine = $1 == isa } mine && /in work[ :]/ { n++ }
		END { print n + 0 }' sites.$isa.txt)
	[ "$n" -ge 2 ] || { echo "FAIL: expected 2 call sites in work on $isa, got $n"; cat sites.$isa.txt; exit 1; }
	echo "ok: $n call sites of work listed on $isa"
done
echo "ok: verify passes"

# The same file name and function names, so the IDs collide, but other code.
"$bin/popcorn-clang" -O2 -c prog.c -o plain.o
"$bin/popcorn-clang" -O2 -c -DVARIANT prog.c -o variant.o
"$bin/popcorn-inspect" extract --isa aarch64 variant.o variant.aarch64.o
"$objcopy" --update-section .popcorn.isa.aarch64=variant.aarch64.o plain.o mixed.o
set +e
"$bin/popcorn-clang" mixed.o -o mixed 2>err.txt
status=$?
set -e
if [ "$status" -eq 0 ]; then
	echo "FAIL: a mismatched build was linked"
	exit 1
fi
if [ "$status" -ge 128 ] || ! grep -q "call site .* in function 'work' (line [0-9][0-9]*)" err.txt; then
	echo "FAIL: the link failed (exit $status) without naming function 'work' and its line:"
	cat err.txt
	exit 1
fi
echo "ok: mismatched build refused:"
cat err.txt
