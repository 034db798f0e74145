#!/bin/sh
# The unwinding self-check: with POPCORN_CHECK_UNWIND=verbose every migration
# point walks the whole stack with the metadata alone, on both ISAs; the
# program's output must not change, both ISAs must make the same walks, and
# at least one (a program whose points never fire checked nothing).
#
#   run-unwind-test.sh BIN_DIR QEMU_AARCH64 SOURCE OPT WORK_DIR
set -eu
bin=$1 qemu=$2 src=$3 opt=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$bin/popcorn-clang" "$opt" "$src" -o prog
"$bin/popcorn-inspect" extract --isa aarch64 prog prog.aarch64
./prog >plain.out
POPCORN_CHECK_UNWIND=verbose ./prog >x86_64.out 2>x86_64.err
POPCORN_CHECK_UNWIND=verbose "$qemu" ./prog.aarch64 >aarch64.out 2>aarch64.err
for isa in x86_64 aarch64; do
	cmp -s plain.out $isa.out || { echo "FAIL: output changed under the check on $isa"; diff plain.out $isa.out; exit 1; }
	walks=$(sed -n "s/^popcorn: POPCORN_CHECK_UNWIND: \([0-9]*\) stack walks, deepest .* all ended at the thread's base\$/\1/p" $isa.err)
	[ -n "$walks" ] || { echo "FAIL: no completed check on $isa:"; cat $isa.err; exit 1; }
	[ "$walks" -ge 1 ] || { echo "FAIL: no stack walked on $isa:"; cat $isa.err; exit 1; }
done
cmp -s x86_64.err aarch64.err || { echo "FAIL: the ISAs walked differently"; diff x86_64.err aarch64.err; exit 1; }
cat x86_64.err
