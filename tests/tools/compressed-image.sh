#!/bin/sh
# The aarch64 image is stored compressed in the executable (popcorn-ld), and
# inflated by popcorn-inspect and by the runtime when node 1 starts: a run
# that moves to node 1 and back prints what a run that stays home prints.
# A byte of the compressed stream damaged: the runtime says the image is
# damaged and the thread stays home (same output), and popcorn-inspect
# names the section instead of writing a wrong image.
#
#   compressed-image.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/runs.sh"
enter_work_dir "$work"
fail=0
failed() {
	echo "FAIL: $*"
	fail=1
}

"$bin/popcorn-clang" -O2 "$here/rounds.c" -o sum

# The section starts with the header's magic, and inflates to an aarch64
# executable larger than what is stored.
llvm_objcopy=$(command -v llvm-objcopy-19 || command -v llvm-objcopy)
"$llvm_objcopy" --dump-section .popcorn.isa.aarch64=stored.bin sum sum.copy
[ "$(head -c 8 stored.bin)" = popzlib1 ] || failed "section .popcorn.isa.aarch64 is not compressed"
"$bin/popcorn-inspect" extract --isa aarch64 sum sum.aarch64
[ "$(od -An -c -N4 sum.aarch64 | tr -d ' ')" = '177ELF' ] || failed "extract did not give an ELF file"
[ "$(wc -c <sum.aarch64)" -gt "$(wc -c <stored.bin)" ] || failed "the extracted image is not larger than the stored one"

./sum >native.out
POPCORN_MIGRATE='every=1;nodes=1,0' POPCORN_LOG=stats ./sum >moved.out 2>moved.err || failed "the migrating run failed: $(cat moved.err)"
cmp -s native.out moved.out || failed "the migrating run printed other output"
grep -q 'to node 1' moved.err || failed "the run never moved to node 1: $(cat moved.err)"

# Damage one byte in the middle of the stream (past the 24-byte header).
readelf=$(command -v llvm-readelf-19 || command -v llvm-readelf)
offset=$("$readelf" -S -W sum | awk '$2 == ".popcorn.isa.aarch64" { print $5 } $3 == ".popcorn.isa.aarch64" { print $6 }')
[ -n "$offset" ] || failed "no section .popcorn.isa.aarch64"
offset=$((0x$offset))
[ "$(dd if=sum bs=1 skip="$offset" count=8 2>/dev/null)" = popzlib1 ] || failed "no magic where the section starts"
cp sum damaged
at=$((offset + 24 + $(wc -c <stored.bin) / 2))
printf '\377' | dd of=damaged bs=1 seek="$at" conv=notrunc 2>/dev/null
cmp -s sum damaged && failed "the byte at $at was 0xff already"
status=0
POPCORN_MIGRATE='every=1;nodes=1,0' ./damaged >damaged.out 2>damaged.err || status=$?
echo "damaged image, migrating run: exit status $status"
cat damaged.err
[ "$status" -eq 0 ] || failed "the run with a damaged image failed"
cmp -s native.out damaged.out || failed "the run with a damaged image printed other output"
grep -q 'aarch64 image of this executable is missing or damaged' damaged.err ||
	failed "the runtime did not name the damaged image"
status=0
"$bin/popcorn-inspect" extract --isa aarch64 damaged damaged.aarch64 2>inspect.err || status=$?
cat inspect.err
[ "$status" -ne 0 ] && grep -q 'section .popcorn.isa.aarch64 holds a damaged compressed image' inspect.err ||
	failed "popcorn-inspect extract did not refuse the damaged image"
[ $fail -eq 0 ] && echo "ok: the compressed image inflates, and a damaged one is named"
exit $fail
