#!/bin/sh
# popcorn-clang++ as the C++ compiler of make and of CMake (whose compiler
# check compiles and links a C++ program), C and C++ objects in one
# program: each build runs at home and on aarch64 and prints what a native
# clang++ build prints.
#
#   cxx-build-systems.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2 clang=$3
src=$(cd "$(dirname "$0")/cxx-project" && pwd)
rm -rf "$work"
mkdir -p "$work"
cd "$work"

fail() {
	echo "FAIL: $*"
	exit 1
}

"$clang" -O2 -c "$src/counter.c" -o native-counter.o &&
	"$clang" --driver-mode=g++ -O2 -std=c++20 "$src/main.cpp" native-counter.o -o native ||
	fail "the native build"
./native >expected.txt

# check NAME PROG: PROG prints what the native build prints, on both ISAs.
check() {
	"$bin/popcorn-inspect" extract --isa aarch64 "$2" "$2.aarch64"
	for run in "$2" "qemu-aarch64 $2.aarch64"; do
		$run >got.txt 2>&1 || fail "$1: '$run' failed: $(cat got.txt)"
		cmp -s expected.txt got.txt || { diff -u expected.txt got.txt; fail "$1: '$run' differs from native"; }
	done
	echo "ok: $1"
}

mkdir make
cp "$src"/*.c "$src"/*.h "$src"/*.cpp "$src/Makefile" make/
make -C make CC="$bin/popcorn-clang" CXX="$bin/popcorn-clang++" >make.log 2>&1 ||
	{ cat make.log; fail "make with CXX=popcorn-clang++"; }
check make make/prog

CC="$bin/popcorn-clang" CXX="$bin/popcorn-clang++" cmake -S "$src" -B cmake-build >cmake.log 2>&1 ||
	{ cat cmake.log; fail "cmake with CXX=popcorn-clang++"; }
cmake --build cmake-build >>cmake.log 2>&1 || { cat cmake.log; fail "cmake --build"; }
check cmake cmake-build/prog
