#!/bin/sh
# popcorn-clang++ as the C++ compiler of make, of CMake (whose compiler
# check compiles and links a C++ program) and of an autoconf configure
# script with automake's Makefile, C and C++ objects in one program: each
# build runs at home and on aarch64 and prints what a native clang++ build
# prints.  configure must also find what it finds with clang++.  Without
# autoreconf (scripts/install-deps.sh installs it) the autotools build is
# skipped, and says so.
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

# configure_with NAME CC CXX: configure the autotools copy of the project
# in NAME with CC and CXX, its output in NAME.configure, the compilers'
# names replaced by CC and CXX (so that two compilers' outputs compare).
configure_with() {
	cp -R autotools "$1"
	(cd "$1" && ./configure CC="$2" CXX="$3" CXXFLAGS="-O2 -std=c++20") >"$1.log" 2>&1 ||
		{ cat "$1.log" "$1/config.log"; fail "$1: configure with CXX=$3"; }
	# The longer name first: CXX's contains CC's.
	sed -e "s|$3|CXX|g" -e "s|$2|CC|g" "$1.log" >"$1.configure"
}

if ! command -v autoreconf >/dev/null; then
	echo "skip: autotools: autoreconf is not installed (scripts/install-deps.sh installs autoconf and automake)"
	exit 77 # ctest: skipped, not passed
fi
mkdir autotools
cp "$src"/*.c "$src"/*.h "$src"/*.cpp "$src/configure.ac" "$src/Makefile.am" autotools/
(cd autotools && autoreconf -i) >autoreconf.log 2>&1 || { cat autoreconf.log; fail "autoreconf -i"; }
configure_with autotools-clang "$clang" "$clang --driver-mode=g++"
configure_with autotools-popcorn "$bin/popcorn-clang" "$bin/popcorn-clang++"
diff -u autotools-clang.configure autotools-popcorn.configure ||
	fail "configure with CXX=popcorn-clang++ found otherwise than with clang++"
make -C autotools-popcorn >autotools-make.log 2>&1 || { cat autotools-make.log; fail "make after configure"; }
check autotools autotools-popcorn/prog
