#!/bin/sh
# bench/stretch.sh --points on a popcorn program (whose runtime writes the
# flag and takes its address): it must list the instructions that read
# __popcorn_migration_pending and no other, as the AT&T disassembly tells
# them apart (a read is a cmp or test, or has a register destination, its
# last operand; lea only takes the address).
#
#   run-stretch-points.sh BIN_DIR SOURCE WORK_DIR
set -eu
bin=$1 src=$2 work=$3
objdump=${OBJDUMP:-llvm-objdump-19}
stretch=$(cd "$(dirname "$0")/../../bench" && pwd)/stretch.sh
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$bin/popcorn-clang" -O2 "$src" -o prog
"$bin/popcorn-inspect" extract --isa x86_64 prog prog.x86_64
"$stretch" --points prog.x86_64 >listed
"$objdump" -d --no-show-raw-insn prog.x86_64 | grep '<__popcorn_migration_pending>' |
	sed 's/[[:space:]]*#.*//' >uses
awk '{ a = $1; sub(":", "", a); while (length(a) < 16) a = "0" a; op = $2 }
	op ~ /^(cmp|test)/ || (op !~ /^lea/ && $NF ~ /^%/) { print a }' uses >reads
# Several, so that listing the first alone cannot pass.
if [ "$(wc -l <reads)" -lt 2 ]; then
	echo "FAIL: fewer than two instructions read __popcorn_migration_pending in $src's image"
	exit 1
fi
if ! cmp -s reads listed; then
	echo "FAIL: stretch.sh --points lists other instructions than the flag's reads:"
	diff reads listed || true
	echo "the instructions that use the flag:"
	cat uses
	exit 1
fi
echo "ok: stretch.sh --points lists the $(wc -l <reads) reads of the flag, not its $(($(wc -l <uses) - $(wc -l <reads))) other uses"
