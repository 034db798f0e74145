#!/bin/sh
# The migration metadata is stored compressed (popcorn/Metadata.h): section
# .popcorn.metadata starts with popcorn_packed_metadata's magic, and a run
# that moves prints what a run that stays home prints.
# popcorn-ld reserves the section before its final links; when the final
# metadata does not fit (forced here with a negative first margin), it lays
# out and links again, and the program still moves.
# A byte of the stream damaged: a run that never moves does not read the
# metadata (its start does not inflate it) and says nothing; a run that
# would move says on one line that the metadata is damaged and the thread
# stays home (same output); popcorn-inspect verify refuses the file.
#
#   packed-metadata.sh BIN_DIR WORK_DIR CLANG
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
./sum >native.out

readelf=$(command -v llvm-readelf-19 || command -v llvm-readelf)
section_offset() { # FILE: the file offset of FILE's .popcorn.metadata, in decimal
	o=$("$readelf" -S -W "$1" | awk '$2 == ".popcorn.metadata" { print $5 } $3 == ".popcorn.metadata" { print $6 }')
	[ -n "$o" ] && echo $((0x$o))
}
moves() { # FILE NODES: FILE moving at every point prints native.out
	status=0
	POPCORN_MIGRATE="every=1;nodes=$2" POPCORN_LOG=stats "./$1" >"$1.moved.out" 2>"$1.moved.err" || status=$?
	[ "$status" -eq 0 ] || failed "$1, moving to $2: exit status $status: $(cat "$1.moved.err")"
	cmp -s native.out "$1.moved.out" || failed "$1, moving to $2: other output"
	# The report counts each node's moves ("(3 to node 1, 4 to node 2)"):
	# every node of NODES but home must have one.
	for node in $(echo "$2" | tr ',' '\n' | grep -vx 0); do
		grep -q "^popcorn: migrations: .*[(, ][1-9][0-9]* to node $node[,)]" "$1.moved.err" ||
			failed "$1 never moved to node $node: $(cat "$1.moved.err")"
	done
}

offset=$(section_offset sum) || { failed "no section .popcorn.metadata"; exit 1; }
[ "$(dd if=sum bs=1 skip="$offset" count=8 2>/dev/null)" = popmeta1 ] ||
	failed "section .popcorn.metadata does not start with popmeta1: it is not stored compressed"
"$bin/popcorn-inspect" verify sum >/dev/null || failed "popcorn-inspect verify refused sum"
moves sum 2,0
moves sum 1,0

# A reservation too small for the final metadata: laid out and linked again.
# A margin below minus the packed size reserves one byte, whatever the
# metadata's size (a margin of -64 stopped being too small when the final
# metadata came out 64 bytes smaller than the first link's).
POPCORN_LD_FIRST_METADATA_MARGIN=-1000000 "$bin/popcorn-clang" -O2 "$here/rounds.c" -o relinked 2>relink.err ||
	failed "the link with a reservation too small failed: $(cat relink.err)"
grep -q "popcorn-ld: the metadata needs .* linking again" relink.err ||
	failed "popcorn-ld did not link again with more room: $(cat relink.err)"
"$bin/popcorn-inspect" verify relinked >/dev/null || failed "popcorn-inspect verify refused the relinked file"
moves relinked 1,0

# One byte in the middle of the zlib stream (past the 16-byte header).
size=$("$readelf" -S -W sum | awk '$2 == ".popcorn.metadata" { print $6 } $3 == ".popcorn.metadata" { print $7 }')
cp sum damaged
at=$((offset + 16 + 0x$size / 4))
printf '\377' | dd of=damaged bs=1 seek="$at" conv=notrunc 2>/dev/null
cmp -s sum damaged && failed "the byte at $at was 0xff already"
status=0
./damaged >home.out 2>home.err || status=$?
[ "$status" -eq 0 ] && cmp -s native.out home.out && [ ! -s home.err ] ||
	failed "a run of the damaged file that does not move: exit status $status, other output or an error: $(cat home.err)"
status=0
POPCORN_MIGRATE='every=1;nodes=2,0' ./damaged >damaged.out 2>damaged.err || status=$?
echo "damaged metadata, migrating run: exit status $status"
cat damaged.err
[ "$status" -eq 0 ] || failed "the run with damaged metadata failed"
cmp -s native.out damaged.out || failed "the run with damaged metadata printed other output"
[ "$(grep -c 'popcorn: the migration metadata in section .popcorn.metadata is damaged: ' damaged.err)" -eq 1 ] ||
	failed "the runtime did not say once that the metadata is damaged"
status=0
"$bin/popcorn-inspect" verify damaged >/dev/null 2>inspect.err || status=$?
cat inspect.err
[ "$status" -eq 1 ] && grep -q 'error: .*the migration metadata in section .popcorn.metadata is damaged: ' inspect.err ||
	failed "popcorn-inspect verify did not refuse the damaged metadata"
[ $fail -eq 0 ] && echo "ok: the metadata is stored compressed, relinked when it outgrows its room, and damage is named"
exit $fail
