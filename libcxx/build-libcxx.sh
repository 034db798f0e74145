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
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=$1
sysroot=$2
bin=$3

: "${CLANG:=clang-19}"
: "${LLVM_AR:=llvm-ar-19}"
: "${LLVM_RANLIB:=llvm-ranlib-19}"
: "${CMAKE:=cmake}"
: "${JOBS:=2}"
isas="x86_64 aarch64"
# The parts of the source package the three libraries are built from.
parts="libcxx libcxxabi libunwind runtimes cmake llvm/cmake"

mkdir -p "$work"
work=$(cd "$work" && pwd)
sysroot=$(cd "$sysroot" && pwd)
bin=$(cd "$bin" && pwd)

# Fetches the package's upstream tarball once and extracts only $parts,
# without their tests, benchmarks and documentation (the whole tree is 1.6
# GB).  Debian's patches are not applied: none is about these libraries on
# Linux.
fetch_source() {
	[ -f "$work/src/libcxx/CMakeLists.txt" ] && return 0
	rm -rf "$work/fetch" "$work/src"
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
	echo "--target=$1-linux-musl -nostdinc -isystem $sysroot/$1/include -isystem $($CLANG -print-resource-dir)/include
		-I$work/patched/libunwind/include -O2 -ffunction-sections -fdata-sections -funwind-tables
		-D_LIBUNWIND_IS_NATIVE_ONLY -DNDEBUG"
}

build_libunwind() {
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
	rm -f "$sysroot/$isa/lib/libunwind.a"
	$LLVM_AR rcs "$sysroot/$isa/lib/libunwind.a" "$obj"/*.o
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
build_libcxx() {
	rm -rf "$work/cxx" "$work/install"
	"$CMAKE" -G Ninja -S "$work/patched/runtimes" -B "$work/cxx" \
		-DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_C_COMPILER="$bin/popcorn-clang" -DCMAKE_CXX_COMPILER="$bin/popcorn-clang++" \
		-DCMAKE_AR="$(command -v "$LLVM_AR")" -DCMAKE_RANLIB="$(command -v "$LLVM_RANLIB")" \
		-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
		-DCMAKE_CXX_FLAGS="-I$work/patched/libunwind/include -I$here/include" \
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
echo "building libc++, libc++abi and libunwind 19"
patch_source
build_libcxx
for isa in $isas; do
	build_libunwind "$isa"
	for lib in libc++ libc++abi; do
		split_archive "$work/install/lib/$lib.a" "$sysroot/$isa/lib/$lib.a"
	done
	rm -rf "$sysroot/$isa/include/c++"
	mkdir -p "$sysroot/$isa/include"
	cp -R "$work/install/include/c++" "$sysroot/$isa/include/c++"
done
echo "$stamp" >"$work/.stamp"
