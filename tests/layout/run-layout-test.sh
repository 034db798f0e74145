#!/bin/sh
# The layout tests of one multi-ISA build:
#   1. a program that prints addresses and initialized data prints the same
#      on every ISA;
#   2. popcorn-inspect verify accepts it;
#   3. popcorn-inspect rejects damaged files with a message, not a crash.
#
#   run-layout-test.sh BIN_DIR QEMU_AARCH64 SOURCE WORK_DIR
set -eu
bin=$1 qemu=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work"

"$bin/popcorn-clang" -O2 "$src" -o prog
"$bin/popcorn-inspect" extract --isa aarch64 prog prog.aarch64
./prog >x86_64.out
"$qemu" ./prog.aarch64 >aarch64.out
if ! cmp -s x86_64.out aarch64.out; then
	echo "FAIL: the ISAs disagree on addresses or data:"
	diff -u x86_64.out aarch64.out
	exit 1
fi
[ -s x86_64.out ] || { echo "FAIL: no output"; exit 1; }
echo "ok: identical addresses and data on x86_64 and aarch64 ($(wc -l <x86_64.out) lines)"

"$bin/popcorn-inspect" verify prog
"$bin/popcorn-inspect" layout prog >layout.txt
grep -q '^function main ' layout.txt || { echo "FAIL: layout lists no main"; exit 1; }

# Damaged files: every one must be refused with exit status 1 and a message.
size=$(wc -c <prog)
expect_refusal() { # FILE REASON: verify refuses FILE, saying REASON
	set +e
	"$bin/popcorn-inspect" verify "$1" >/dev/null 2>err.txt
	status=$?
	set -e
	if [ "$status" -ne 1 ] || ! grep -q "error: .*$2" err.txt; then
		echo "FAIL: popcorn-inspect verify $1: exit $status, expected 1 with an error saying '$2'"
		cat err.txt
		exit 1
	fi
	echo "ok: $1 refused: $(head -1 err.txt)"
}
head -c $((size / 2)) prog >truncated-half
expect_refusal truncated-half 'not an object file'
head -c 40 prog >truncated-header
expect_refusal truncated-header 'not an object file'
: >empty
expect_refusal empty 'not an object file'
# Overwrite the stored aarch64 image's magic (popcorn/StoredImage.h: the
# image is compressed behind it): what is left is neither a compressed
# image nor an ELF file.
readelf=$(command -v llvm-readelf-19 || command -v llvm-readelf)
offset=$("$readelf" -S -W prog | awk '$2 == ".popcorn.isa.aarch64" { print $5 } $3 == ".popcorn.isa.aarch64" { print $6 }')
[ -n "$offset" ] || { echo "FAIL: no section .popcorn.isa.aarch64 in prog"; exit 1; }
offset=$((0x$offset))
[ "$(dd if=prog bs=1 skip="$offset" count=8 2>/dev/null)" = popzlib1 ] ||
	{ echo "FAIL: the aarch64 image is not stored compressed"; exit 1; }
cp prog corrupt-image
printf 'XXXX' | dd of=corrupt-image bs=1 seek="$offset" conv=notrunc 2>/dev/null
expect_refusal corrupt-image 'aarch64 holds neither a compressed image nor an ELF file'
# prog.aarch64 carries prog (it can be home on aarch64); extracting its
# own ISA from it gives the plain file.
"$bin/popcorn-inspect" extract --isa aarch64 prog.aarch64 not-multi-isa 2>note.txt
grep -q "prog.aarch64 is already an executable for aarch64: .*cannot move" note.txt ||
	{ echo "FAIL: no note that extracting prog.aarch64's own ISA drops its x86_64 image: $(cat note.txt)"; exit 1; }
expect_refusal not-multi-isa 'has no x86_64 image'
