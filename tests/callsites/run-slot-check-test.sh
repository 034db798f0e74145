#!/bin/sh
# popcorn-llc's check that no stack slot outside the records lives across a
# recorded call (VerifyCallSiteSlots), on a program whose -O0 build kept
# aarch64's frame base in such a slot:
#   1. SOURCE builds at -O0: the frame bases are computed again after each
#      recorded call (RematerializeAcrossCalls), so no slot is left over;
#   2. the same module, its back end run without that pass, is refused with
#      the error naming the spill slot and the function: the check sees what
#      the pass prevents, at compile time rather than in a migrated run.
#
#   run-slot-check-test.sh BIN_DIR SOURCE WORK_DIR
set -eu
bin=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"

"$bin/popcorn-clang" -O0 -c "$src" -o prog.o

# The driver's two steps (-###), the module kept between them.
steps=$("$bin/popcorn-clang" -### -O0 -c "$src" -o unused.o 2>&1)
front=$(echo "$steps" | grep -v '/popcorn-llc"' | tail -n 1)
eval "$front -o module.bc"
[ -s module.bc ] || { echo "FAIL: no module from: $front"; exit 1; }
if "$bin/popcorn-llc" -O0 module.bc -o broken.o -popcorn-remat-across-calls=false 2>broken.err; then
	echo "FAIL: popcorn-llc accepted a module whose frame bases cross calls in spill slots"
	exit 1
fi
grep -q "in function 'main', the aarch64 back end keeps a value of its own in spill slot [0-9]* (8 bytes) across the call with record 0x" broken.err ||
	{ echo "FAIL: not the expected error:"; cat broken.err; exit 1; }
echo "ok: -O0 builds; without rematerialization: $(cat broken.err)"
