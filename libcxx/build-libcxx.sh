#!/bin/sh
# Fetch LLVM 19's C++ runtime (libc++, libc++abi, libunwind) from Debian's
# llvm-toolchain-19 source package and build it for every ISA, against the
# musl sysroots build-musl.sh made.
#
#   build-libcxx.sh WORK_DIR SYSROOT_DIR BIN_DIR
#
# libc++ and libc++abi are compiled as programs are: by BIN_DIR's
# popcorn-clang++, once, into multi-ISA objects.  Library code that calls
# back into the program (std::sort's comparator, std::function, a virtual
# call, the destructor of an exception) then has call-site records, and a
# thread can move while a program frame is above a library frame.  Each
# ISA's archive holds that ISA's part of every object (popcorn-inspect
# extract), so that -lc++ is found in every ISA's sysroot, as -lc is.
#
# libunwind is compiled per ISA, as musl is: it is assembly (saving and
# restoring the ISA's registers) and C++ about one ISA's frames, and it
# calls nothing of the program: it finds the landing pads, and the program
# resumes there.  It gets no records, so no thread moves while it runs;
# none can, since no migration point is reached in it.
#
# Our patches (patches/) keep the code that runs inside the unwinder free of
# migration points.
#
# WORK_DIR keeps the fetched source and the build trees; the headers go to
# SYSROOT_DIR/ISA/include/c++/v1 and the libraries to SYSROOT_DIR/ISA/lib.
# Everything is rebuilt only when its inputs (this script, the compiler
# and its plugin, the list of libc's functions) change.
#
#   build-libcxx.sh --stock WORK_DIR
#
# builds the baseline the benchmarks compare with (bench/run.sh): the same
# three libraries from the same source, unpatched, by plain clang-19 and
# clang++-19 for x86-64 against Debian's unmodified musl (musl-dev; paths
# as in bench/stock.sh: STOCK_MUSL_INCLUDE_x86_64), into
# WORK_DIR/install/include/c++/v1 and WORK_DIR/install/lib.
#
# Either way LIBCXX_SRC, a source tree an earlier run fetched (its
# WORK_DIR/src), saves fetching it again.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
stock=0
if [ "${1:-}" = --stock ]; then
	stock=1
	shift
	[ $# -eq 1 ] || { echo "usage: build-libcxx.sh --stock WORK_DIR" >&2; exit 2; }
else
	[ $# -eq 3 ] || { echo "usage: build-libcxx.sh WORK_DIR SYSROOT_DIR BIN_DIR | --stock WORK_DIR" >&2; exit 2; }
fi
work=$1
sysroot=${2:-}
bin=${3:-}

: "${CLANG:=clang-19}"
: "${CLANGXX:=clang++-19}"
: "${STOCK_MUSL_INCLUDE_x86_64:=/usr/include/x86_64-linux-musl}"
: "${LLVM_AR:=llvm-ar-19}"
: "${LLVM_RANLIB:=llvm-ranlib-19}"
: "${CMAKE:=cmake}"
: "${JOBS:=2}"
isas="x86_64 aarch64"
# The parts of the source package the three libraries are built from.
parts="libcxx libcxxabi libunwind runtimes cmake llvm/cmake"

mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ "$stock" = 0 ]; then
	sysroot=$(cd "$sysroot" && pwd)
	bin=$(cd "$bin" && pwd)
fi

# Fetches the package's upstream tarball once and extracts only $parts,
# without their tests, benchmarks and documentation (the whole tree is 1.6
# GB).  Debian's patches are not applied: none is about these libraries on
# Linux.
fetch_source() {
	[ -f "$work/src/libcxx/CMakeLists.txt" ] && return 0
	rm -rf "$work/fetch" "$work/src"
	if [ -n "${LIBCXX_SRC:-}" ] && [ -f "$LIBCXX_SRC/libcxx/CMakeLists.txt" ] && [ -f "$LIBCXX_SRC/.version" ]; then
		cp -R "$LIBCXX_SRC" "$work/src"
		return 0
	fi
	mkdir -p "$work/fetch"
	if ! (cd "$work/fetch" && apt-get source --download-only llvm-toolchain-19) >"$work/fetch.log" 2>&1; then
		cat "$work/fetch.log" >&2
		echo "build-libcxx.sh: 'apt-get source llvm-toolchain-19' failed; it needs a deb-src line in the apt sources and dpkg-dev (scripts/install-deps.sh sets up both)" >&2
		exit 1
	fi
	set -- "$work"/fetch/llvm-toolchain-19_*.orig.tar.xz
	[ -f "$1" ] || { echo "build-libcxx.sh: no upstream tarball in the llvm-toolchain-19 source package" >&2; exit 1; }
	patterns=
	for p in $parts; do
		patterns="$patterns */$p/*"
	done
	# The patterns are tar's, not the shell's.
	set -f
	# shellcheck disable=SC2086 # the patterns are words
	tar -xJf "$1" -C "$work/fetch" --wildcards --no-wildcards-match-slash \
		--exclude='*/test/*' --exclude='*/benchmarks/*' --exclude='*/docs/*' $patterns ||
		{ echo "build-libcxx.sh: cannot extract $parts from $1" >&2; exit 1; }
	set +f
	mv "$work"/fetch/llvm-toolchain-19_*/ "$work/src"
	basename "$1" >"$work/src/.version"
	rm -rf "$work/fetch"
}

# The pristine source, patched (patches/), into $work/patched.
patch_source() {
	rm -rf "$work/patched"
	cp -R "$work/src" "$work/patched"
	for p in "$here"/patches/*.patch; do
		patch -d "$work/patched" -p1 --quiet --forward <"$p" || {
			echo "build-libcxx.sh: patch $(basename "$p") does not apply to $(cat "$work/src/.version")" >&2
			exit 1
		}
	done
}

# The inputs the libraries are made from: a change to any rebuilds them.
stamp_of() {
	if [ "$stock" = 1 ]; then
		{
			cat "$here/build-libcxx.sh" "$here"/include/*/*.h "$work/src/.version"
			echo "$CLANG $CLANGXX $STOCK_MUSL_INCLUDE_x86_64"
			"$CLANG" --version
		} | sha256sum | cut -d' ' -f1
		return
	fi
	{
		cat "$here/build-libcxx.sh" "$here"/include/*/*.h "$here"/patches/*.patch "$work/src/.version"
		echo "$CLANG"
		cat "$bin/popcorn-clang" "$bin/popcorn-llc" "$sysroot/popcorn-plugin.so" \
			"$sysroot/libc-functions.txt"
	} | sha256sum | cut -d' ' -f1
}

# Per-ISA flags of libunwind.  It is compiled with clang for each ISA, as
# musl is; no type of its interface (_Unwind_Exception, the context)
# depends on the ABI settings musl's x86-64 build changes (long double,
# char signedness).
unwind_flags() {
	libc_include=$sysroot/$1/include
	[ "$stock" = 0 ] || libc_include=$STOCK_MUSL_INCLUDE_x86_64
	echo "--target=$1-linux-musl -nostdinc -isystem $libc_include -isystem $($CLANG -print-resource-dir)/include
		-I$work/patched/libunwind/include -O2 -ffunction-sections -fdata-sections -funwind-tables
		-D_LIBUNWIND_IS_NATIVE_ONLY -DNDEBUG"
}

build_libunwind() { # ISA ARCHIVE
	isa=$1
	obj=$work/unwind/$isa
	rm -rf "$obj"
	mkdir -p "$obj"
	flags=$(unwind_flags "$isa")
	for f in libunwind.cpp UnwindLevel1.c UnwindLevel1-gcc-ext.c UnwindRegistersSave.S UnwindRegistersRestore.S; do
		case $f in
		*.cpp) lang="-std=c++17 -nostdinc++ -fno-exceptions -fno-rtti" ;;
		*.c) lang="-std=c99" ;;
		*) lang= ;;
		esac
		# shellcheck disable=SC2086 # flags are words
		$CLANG $flags $lang -c "$work/patched/libunwind/src/$f" -o "$obj/${f%.*}.o" ||
			{ echo "build-libcxx.sh: cannot compile libunwind's $f for $isa" >&2; exit 1; }
	done
	rm -f "$2"
	$LLVM_AR rcs "$2" "$obj"/*.o
}

# libc++ and libc++abi with their own CMake build (the runtimes tree), the
# compiler being popcorn-clang++.  Nothing can be linked before libc++
# exists: its configure checks compile only, so they would find every
# library they look for; musl has all of them in libc (libc++ would
# otherwise ask the linker for -lpthread in its objects).  The unwinder's header is
# libunwind's, the one the program's exceptions are raised by; the futex
# constants (include/linux) are ours, musl having no kernel headers.
# musl has no __cxa_thread_atexit_impl (the compile-only check would find
# it, and every thread_local with a destructor would then fail to link):
# libc++abi keeps thread_local destructors itself, run from a thread-
# specific key's destructor at thread exit and from a static object's
# destructor at exit.
#
# The stock build (--stock) is the same but for the compilers, plain
# clang-19 and clang++-19 for x86_64-linux-musl, and the libc headers,
# Debian's musl's.
build_libcxx() {
	rm -rf "$work/cxx" "$work/install"
	if [ "$stock" = 1 ]; then
		libc_flags="--target=x86_64-linux-musl -nostdinc -isystem $STOCK_MUSL_INCLUDE_x86_64 -isystem $($CLANG -print-resource-dir)/include"
		set -- -DCMAKE_C_COMPILER="$(command -v "$CLANG")" -DCMAKE_CXX_COMPILER="$(command -v "$CLANGXX")" \
			-DCMAKE_C_FLAGS="$libc_flags" -DCMAKE_CXX_FLAGS="$libc_flags -I$work/patched/libunwind/include -I$here/include"
	else
		set -- -DCMAKE_C_COMPILER="$bin/popcorn-clang" -DCMAKE_CXX_COMPILER="$bin/popcorn-clang++" \
			-DCMAKE_CXX_FLAGS="-I$work/patched/libunwind/include -I$here/include"
	fi
	"$CMAKE" -G Ninja -S "$work/patched/runtimes" -B "$work/cxx" "$@" \
		-DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_AR="$(command -v "$LLVM_AR")" -DCMAKE_RANLIB="$(command -v "$LLVM_RANLIB")" \
		-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
		-DCMAKE_INSTALL_PREFIX="$work/install" \
		-DLLVM_ENABLE_RUNTIMES="libcxx;libcxxabi" \
		-DLLVM_INCLUDE_TESTS=OFF -DLLVM_INCLUDE_DOCS=OFF \
		-DLIBCXX_INCLUDE_BENCHMARKS=OFF -DLIBCXX_INCLUDE_TESTS=OFF -DLIBCXXABI_INCLUDE_TESTS=OFF \
		-DLIBCXX_ENABLE_SHARED=OFF -DLIBCXXABI_ENABLE_SHARED=OFF \
		-DLIBCXX_HAS_MUSL_LIBC=ON -DLIBCXX_CXX_ABI=libcxxabi \
		-DLIBCXXABI_USE_LLVM_UNWINDER=OFF \
		-DLIBCXX_HAS_PTHREAD_LIB=OFF -DLIBCXX_HAS_RT_LIB=OFF -DLIBCXX_HAS_ATOMIC_LIB=OFF \
		-DLIBCXX_HAS_GCC_S_LIB=OFF -DLIBCXXABI_HAS_PTHREAD_LIB=OFF -DLIBCXXABI_HAS_DL_LIB=OFF \
		-DLIBCXXABI_HAS_GCC_LIB=OFF -DLIBCXXABI_HAS_GCC_S_LIB=OFF -DLIBCXXABI_HAS_C_LIB=OFF \
		-DLIBCXXABI_HAS_CXA_THREAD_ATEXIT_IMPL=OFF \
		-DLIBCXX_ENABLE_TIME_ZONE_DATABASE=OFF \
		>"$work/configure.log" 2>&1 || { tail -40 "$work/configure.log" >&2; exit 1; }
	"$CMAKE" --build "$work/cxx" -j "$JOBS" --target install-cxx install-cxxabi \
		>"$work/build.log" 2>&1 || { grep -B2 -A20 'FAILED\|error:' "$work/build.log" | head -60 >&2; exit 1; }
}

# One ISA's archive of multi-ISA archive $1, into $2.
split_archive() {
	members=$work/split/$isa/$(basename "$1" .a)
	rm -rf "$members"
	mkdir -p "$members"
	(cd "$members" && $LLVM_AR x "$1") || exit 1
	for m in "$members"/*.o; do
		"$bin/popcorn-inspect" extract --isa "$isa" "$m" "$m.isa" && mv "$m.isa" "$m" || exit 1
	done
	rm -f "$2"
	$LLVM_AR rcs "$2" "$members"/*.o
}

fetch_source
stamp=$(stamp_of)
if [ -f "$work/.stamp" ] && [ "$(cat "$work/.stamp")" = "$stamp" ]; then
	echo "libc++ $(cat "$work/src/.version") is up to date"
	exit 0
fi
rm -f "$work/.stamp"
if [ "$stock" = 1 ]; then
	[ -f "$STOCK_MUSL_INCLUDE_x86_64/stdio.h" ] ||
		{ echo "build-libcxx.sh: no musl headers in $STOCK_MUSL_INCLUDE_x86_64 (install musl-dev)" >&2; exit 1; }
	echo "building stock libc++, libc++abi and libunwind 19 (clang-19, Debian's musl)"
	# No patches: they are about migration points.
	rm -rf "$work/patched"
	cp -R "$work/src" "$work/patched"
	build_libcxx
	build_libunwind x86_64 "$work/install/lib/libunwind.a"
	echo "$stamp" >"$work/.stamp"
	exit 0
fi
echo "building libc++, libc++abi and libunwind 19"
patch_source
build_libcxx
for isa in $isas; do
	build_libunwind "$isa" "$sysroot/$isa/lib/libunwind.a"
	for lib in libc++ libc++abi; do
		split_archive "$work/install/lib/$lib.a" "$sysroot/$isa/lib/$lib.a"
	done
	rm -rf "$sysroot/$isa/include/c++"
	mkdir -p "$sysroot/$isa/include"
	cp -R "$work/install/include/c++" "$sysroot/$isa/include/c++"
done
echo "$stamp" >"$work/.stamp"
