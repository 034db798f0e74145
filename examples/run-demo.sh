#!/bin/sh
# Build the demo once with popcorn-clang and run the one executable on both
# ISAs: x86-64 natively, aarch64 under qemu-aarch64.
#
#   examples/run-demo.sh [BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
out=$build/demo
mkdir -p "$out"

"$build/bin/popcorn-clang" -O2 "$here/nbody.c" -o "$out/nbody"
"$build/bin/popcorn-inspect" extract --isa aarch64 "$out/nbody" "$out/nbody.aarch64"

echo "== one executable, x86-64 (native):"
"$out/nbody" >"$out/x86_64.txt"
cat "$out/x86_64.txt"
echo "== the same executable's aarch64 image (qemu-aarch64):"
qemu-aarch64 "$out/nbody.aarch64" >"$out/aarch64.txt"
cat "$out/aarch64.txt"
if cmp -s "$out/x86_64.txt" "$out/aarch64.txt"; then
	echo "== identical results on both ISAs"
else
	echo "== results differ between ISAs" >&2
	exit 1
fi
