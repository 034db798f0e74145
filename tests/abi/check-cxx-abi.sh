#!/bin/sh
# The C++ library's ABI check.  The program and libc++ are compiled once,
# for aarch64, and lowered per ISA; libunwind and musl are compiled per
# ISA.  Every type of the C++ library that a program sees must then have
# one layout everywhere:
#   1. cxx-types.cpp (beside this script), built with popcorn-clang++,
#      prints each type's size and alignment and where its key members lie
#      in an object, found at run time; its x86-64 image (natively) and its
#      aarch64 image (qemu-aarch64) must print the same;
#   2. each ISA's own compilation of the same headers, clang++ against
#      that ISA's sysroot with the flags its musl was built with, must
#      agree with those sizes and alignments: asserted at compile time.
# A difference fails, naming the type.
#
#   check-cxx-abi.sh BIN_DIR SYSROOT CLANG QEMU_AARCH64 WORK_DIR
#
# shellcheck disable=SC2046 # $(flags) splits on purpose
set -eu
if [ $# -ne 5 ]; then
	echo "usage: $0 BIN_DIR SYSROOT CLANG QEMU_AARCH64 WORK_DIR" >&2
	exit 2
fi
bin=$1 sysroot=$2 clang=$3 qemu=$4 work=$5
src=$(cd "$(dirname "$0")" && pwd)/cxx-types.cpp
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
command -v "$qemu" >/dev/null || fail "qemu-aarch64 not found: '$qemu'"

# 1. The toolchain's two compilations of one source.
"$bin/popcorn-clang++" -std=c++20 -O1 "$src" -o types 2>build.err ||
	{ cat build.err; fail "popcorn-clang++ cannot build cxx-types.cpp"; }
"$bin/popcorn-inspect" extract --isa aarch64 types types.aarch64
./types >x86_64.out || fail "cxx-types (x86-64) exited with $?"
"$qemu" ./types.aarch64 >aarch64.out || fail "cxx-types (aarch64) exited with $?"
[ "$(grep -c '^sizeof' aarch64.out)" -ge 50 ] || fail "only $(grep -c '^sizeof' aarch64.out) types printed"
# A key member that is nowhere is a probe that no longer finds it.
lost=$(awk -F '\t' '$2 == -1 { print $1 }' x86_64.out aarch64.out | sort -u)
[ -z "$lost" ] || fail "not found in the object: $(echo "$lost" | tr '\n' ' ')"
paste x86_64.out aarch64.out | awk -F '\t' '$1 != $3 { exit 1 }
	$2 != $4 { printf "  %-64s x86_64 %s, aarch64 %s\n", $1, $2, $4 }' >diffs.txt ||
	fail "the two ISAs' runs print different names"
if [ -s diffs.txt ]; then
	echo "FAIL: the C++ library's types differ between the x86-64 and aarch64 images:"
	cat diffs.txt
	exit 1
fi

# 2. Each ISA's own headers, compiled for it: every size, alignment and
#    offsetof of step 1 as a static assertion that names its type.
flags() {
	echo "--target=$1-linux-musl -std=c++20 -nostdinc -nostdinc++ -isystem $sysroot/$1/include/c++/v1
		-isystem $sysroot/$1/include -isystem $("$clang" -print-resource-dir)/include"
	if [ "$1" = x86_64 ]; then
		echo -mlong-double-128 -funsigned-char -Xclang -fwchar-type=int -Xclang -fno-signed-wchar
	fi
}
{
	echo "#define CXX_TYPES_DECLARATIONS_ONLY"
	echo "#include \"$src\""
	awk -F '\t' '/^(sizeof|alignof|offsetof)\(/ {
		printf "static_assert(%s == %s, \"%s is %s on the aarch64 image\");\n", $1, $2, $1, $2 }' aarch64.out
} >asserts.cpp
result=0
for isa in x86_64 aarch64; do
	if ! "$clang" --driver-mode=g++ $(flags "$isa") -fsyntax-only -ferror-limit=0 asserts.cpp 2>"$isa.err"; then
		differing=$(sed -n 's/.*static assertion failed.*: \(.*\) is \([0-9]*\) on the aarch64 image.*/\1 (aarch64 image: \2)/p' "$isa.err")
		if [ -z "$differing" ]; then
			cat "$isa.err"
			fail "the $isa headers do not compile cxx-types.cpp"
		fi
		echo "FAIL: compiled for $isa against its own headers, the C++ library's types differ:"
		echo "$differing" | sed 's/^/  /'
		result=1
	fi
done
[ $result -eq 0 ] || exit 1
echo "ok: cxx-abi: $(grep -c '^sizeof' aarch64.out) types, $(grep -c '^offset' aarch64.out) member offsets agree on x86-64 and aarch64"
