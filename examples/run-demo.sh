#!/bin/sh
# The demo: build examples/migrate.c once with popcorn-clang and run it.  The
# thread starts on x86-64, moves to aarch64 (node 1: the same executable's
# aarch64 image under qemu-aarch64, in its own process) and comes back.  The
# same program run with migration switched off (POPCORN_NODES with one node:
# popcorn_migrate refuses) must print the same energies.  Then home on
# aarch64: the executable popcorn-inspect extracts for aarch64 carries the
# x86-64 one, and run under qemu-aarch64 its thread moves aarch64 -> x86-64
# (node 1, native) -> aarch64, with the same energies again.
#
#   examples/run-demo.sh [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
out=$build/demo
mkdir -p "$out"

"$build/bin/popcorn-clang" -O2 "$here/migrate.c" -o "$out/migrate" -lm

echo "== one executable; its thread moves x86-64 -> aarch64 -> x86-64:"
POPCORN_LOG=stats "$out/migrate" >"$out/migrated.txt" 2>"$out/migrated.err"
cat "$out/migrated.txt" "$out/migrated.err"
echo "== the same executable, the thread staying on x86-64:"
if ! POPCORN_NODES=0:x86_64:native "$out/migrate" >"$out/home.txt" 2>"$out/home.err"; then
	echo "== the run staying home failed:" >&2
	cat "$out/home.txt" "$out/home.err" >&2
	exit 1
fi
sed 's/ on node [0-9] ([a-z0-9_]*)//' "$out/home.txt" >"$out/native.txt"
cat "$out/native.txt"
if ! grep -q 'after moving to node 1 *on node 1 (aarch64)' "$out/migrated.txt" ||
	! grep -q '^popcorn: migrations: 1 away from home (1 to node 1)' "$out/migrated.err"; then
	echo "== the thread did not reach aarch64" >&2
	exit 1
fi
if ! grep -q 'back at node 0 *on node 0 (x86_64)' "$out/migrated.txt"; then
	echo "== the thread did not come back to x86-64" >&2
	exit 1
fi
if sed 's/ on node [0-9] ([a-z0-9_]*)//' "$out/migrated.txt" | cmp -s - "$out/native.txt"; then
	echo "== identical results: the thread moved and computed exactly as if it had not"
else
	echo "== results differ" >&2
	exit 1
fi

"$build/bin/popcorn-inspect" extract --isa aarch64 "$out/migrate" "$out/migrate.aarch64"
echo "== home on aarch64 (under qemu-aarch64); its thread moves aarch64 -> x86-64 -> aarch64:"
POPCORN_LOG=stats qemu-aarch64 "$out/migrate.aarch64" >"$out/aarch64-home.txt" 2>"$out/aarch64-home.err"
cat "$out/aarch64-home.txt" "$out/aarch64-home.err"
if ! grep -q 'after moving to node 1 *on node 1 (x86_64)' "$out/aarch64-home.txt" ||
	! grep -q 'back at node 0 *on node 0 (aarch64)' "$out/aarch64-home.txt"; then
	echo "== the thread did not go from aarch64 to x86-64 and back" >&2
	exit 1
fi
if sed 's/ on node [0-9] ([a-z0-9_]*)//' "$out/aarch64-home.txt" | cmp -s - "$out/native.txt"; then
	echo "== identical results again"
else
	echo "== results differ" >&2
	exit 1
fi
