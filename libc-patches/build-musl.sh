#!/bin/sh
# Fetch musl 1.2.3 as a Debian source package, apply our patches and build a
# static libc for every ISA with clang 19.
#
#   build-musl.sh WORK_DIR SYSROOT_DIR [ISA...]
#
# MUSL_EXTRA_CFLAGS (environment) is added to every ISA's flags; popcorn's
# build passes its libc pass plugin there (call-site records for libc's calls
# back into the program) and unwind tables for the frames that have them.
#
# With POPCORN_LLC and ONE_IR_CFLAGS set, the pure C files on libc's
# callback paths (qsort, bsearch, tsearch, ...) are compiled as the program
# is: once, for aarch64 (the canonical ISA, built first), into one optimized
# module that popcorn-llc lowers for every ISA.  Compiled per ISA, they could
# not be optimized fully: each ISA's inliner would decide differently, and
# their call-site records would no longer match.  ONE_IR_CFLAGS tells the
# pass plugin so.
#
# WORK_DIR keeps the pristine source and the per-ISA build trees; every ISA is
# installed (headers, libc.a, crt objects) into SYSROOT_DIR/ISA.  An ISA is
# rebuilt only when its inputs (this script, its patches, its flags) change.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
work=$1
sysroot=$2
shift 2
[ $# -gt 0 ] || set -- aarch64 x86_64

: "${CLANG:=clang-19}"
: "${LLVM_AR:=llvm-ar-19}"
: "${LLVM_RANLIB:=llvm-ranlib-19}"
: "${LLVM_OBJCOPY:=llvm-objcopy-19}"
: "${JOBS:=2}"
version=1.2.3

mkdir -p "$work"
work=$(cd "$work" && pwd)
mkdir -p "$sysroot"
sysroot=$(cd "$sysroot" && pwd)

canonical=aarch64
one_ir_files="src/stdlib/qsort.c src/stdlib/qsort_nr.c src/stdlib/bsearch.c
	src/search/tsearch.c src/search/tfind.c src/search/tdelete.c src/search/twalk.c
	src/search/tdestroy.c src/search/lsearch.c"
one_ir=${POPCORN_LLC:+$work/one-ir}

# Prints the command make compiles source file $1 with (run in $obj), up to
# its "-c -o": the caller adds flags and its own output.  $2, if given,
# replaces musl's CFLAGS.
compile_command() {
	lo=obj/${1%.c}.lo
	cmd=$(cd "$obj" && make -n -W "$src/$1" ${2+CFLAGS="$2"} "$lo" | grep -F -- "-o $lo ")
	[ -n "$cmd" ] || { echo "build-musl.sh: no compile command for $1" >&2; exit 1; }
	echo "${cmd%% -c -o $lo *}"
}

# Writes the canonical module of every one-IR file into $one_ir, with the
# command make would compile it with, made to stop at optimized bitcode.
write_one_ir_modules() {
	rm -rf "$one_ir"
	mkdir -p "$one_ir"
	for f in $one_ir_files; do
		cmd=$(compile_command "$f") || exit 1
		(cd "$obj" && eval "$cmd $ONE_IR_CFLAGS -emit-llvm -c -o $one_ir/$(basename "${f%.c}").bc $src/$f") || exit 1
	done
}

# Replaces make's objects of the one-IR files by popcorn-llc's for $isa;
# make then archives them.
lower_one_ir_modules() {
	for f in $one_ir_files; do
		"$POPCORN_LLC" -O2 -only-isa "$isa" "$one_ir/$(basename "${f%.c}").bc" \
			-o "$obj/obj/${f%.c}.lo" || exit 1
	done
}

# Copies of the functions whose only callback is an argument, compiled as a
# stock libc is (no plugin, no records) and renamed __popcorn_plain_*:
# popcorn-plugin calls a copy when the callback is bounded, so that no
# thread can move while it runs (compiler/plugin/LibcCallbacks.h lists the
# same functions).
plain_files="src/stdlib/qsort.c src/stdlib/qsort_nr.c src/stdlib/bsearch.c"
plain_symbols="qsort __qsort_r qsort_r bsearch"

# Adds the plain copies to make's libc.a for $isa.
add_plain_copies() {
	renames=
	for s in $plain_symbols; do
		renames="$renames --redefine-sym $s=__popcorn_plain_$s"
	done
	plain_cflags=$(MUSL_EXTRA_CFLAGS= isa_cflags "$isa")
	for f in $plain_files; do
		out=obj/plain_$(basename "${f%.c}").o
		cmd=$(compile_command "$f" "$plain_cflags") || exit 1
		(cd "$obj" && eval "$cmd -c -o $out $src/$f" && $LLVM_OBJCOPY $renames "$out") || exit 1
	done
	(cd "$obj" && $LLVM_AR rs lib/libc.a obj/plain_*.o) || exit 1
}

pristine=$work/src/musl-$version
if [ ! -f "$pristine/configure" ]; then
	rm -rf "$work/src"
	mkdir -p "$work/src"
	if ! (cd "$work/src" && apt-get source "musl=$version-1") >"$work/fetch.log" 2>&1; then
		cat "$work/fetch.log" >&2
		echo "build-musl.sh: 'apt-get source musl' failed; it needs a deb-src line in the apt sources and dpkg-dev (scripts/install-deps.sh sets up both)" >&2
		exit 1
	fi
fi

# Per-ISA compiler flags.  Every function and object in its own section, so
# the linker tools can place each one at the same address on every ISA.  No
# fused multiply-add contraction: aarch64 has fmadd and x86-64 does not, and
# libm must give the same results on every ISA.
# x86-64 uses IEEE binary128 for long double, as aarch64 does: user code is
# compiled from aarch64 IR and calls this libc with aarch64's long double.
isa_cflags() {
	case $1 in
	# aarch64's long double (binary128), char (unsigned) and wchar_t
	# (unsigned int) on x86-64 too: one ABI for both (see the patches).
	x86_64) echo "-O2 -ffunction-sections -fdata-sections -ffp-contract=off -mlong-double-128 -funsigned-char -Xclang -fwchar-type=int -Xclang -fno-signed-wchar ${MUSL_EXTRA_CFLAGS:-}" ;;
	aarch64) echo "-O2 -ffunction-sections -fdata-sections -ffp-contract=off ${MUSL_EXTRA_CFLAGS:-}" ;;
	*) echo "build-musl.sh: unknown ISA '$1'" >&2; exit 1 ;;
	esac
}

patches_for() {
	for p in "$here"/common/*.patch "$here/$1"/*.patch; do
		[ -f "$p" ] && echo "$p"
	done
	return 0
}

for isa in "$@"; do
	cflags=$(isa_cflags "$isa")
	# A pass plugin in the flags is an input too: its code decides the
	# records compiled into libc.
	stamp=$(
		{
			cat "$here/build-musl.sh"
			echo "$cflags $CLANG"
			patches_for "$isa" | while read -r p; do cat "$p"; done
			cat "$here/$isa/remove-files.txt" 2>/dev/null || true
			if [ -n "$one_ir" ]; then
				echo "$ONE_IR_CFLAGS"
				cat "$POPCORN_LLC"
				[ "$isa" = "$canonical" ] || cat "$one_ir"/*.bc 2>/dev/null || true
			fi
			for f in $cflags; do
				case $f in -fpass-plugin=*) cat "${f#-fpass-plugin=}" ;; esac
			done
		} | sha256sum | cut -d' ' -f1
	)
	if [ -f "$sysroot/$isa/.musl-stamp" ] && [ "$(cat "$sysroot/$isa/.musl-stamp")" = "$stamp" ]; then
		echo "musl $version for $isa is up to date"
		continue
	fi
	echo "building musl $version for $isa"
	src=$work/$isa/src
	obj=$work/$isa/obj
	# The sysroot also holds what other build steps put there (the runtime,
	# compiler builtins): 'make install' replaces musl's files only.
	rm -rf "$work/$isa"
	mkdir -p "$work/$isa" "$obj"
	cp -R "$pristine" "$src"
	for p in $(patches_for "$isa"); do
		patch -d "$src" -p1 --quiet --forward <"$p" || {
			echo "build-musl.sh: patch $(basename "$p") does not apply to musl $version" >&2
			exit 1
		}
	done
	# x86-64's syscall() maps aarch64's numbers, the ones programs are
	# compiled with (x86_64/0012-syscall-aarch64-numbers.patch): the table
	# comes from both ISAs' lists of system calls, by name.
	if [ "$isa" = x86_64 ]; then
		awk '$1 == "#define" && $2 ~ /^__NR_/ {
			if (FILENAME ~ /arch\/x86_64\//) x86[$2] = $3; else arm[$2] = $3
		} END {
			for (name in arm)
				if (name in x86) printf "[%d] = %d, /* %s */\n", arm[name], x86[name] + 1, substr(name, 6)
		}' "$src/arch/x86_64/bits/syscall.h.in" "$src/arch/aarch64/bits/syscall.h.in" |
			sort -t'[' -k2 -n >"$src/src/misc/aarch64_syscall_numbers.h"
	fi
	# A patch may list files to delete (x87 assembly has no place in a
	# binary128 long double libc); 'patch' cannot express that for files
	# whose replacement lives elsewhere in the tree.
	if [ -f "$here/$isa/remove-files.txt" ]; then
		grep -v '^#' "$here/$isa/remove-files.txt" | while read -r f; do
			[ -n "$f" ] && rm -f "$src/$f"
		done
	fi
	(
		cd "$obj"
		CC="$CLANG --target=$isa-linux-musl" AR=$LLVM_AR RANLIB=$LLVM_RANLIB CFLAGS="$cflags" \
			"$src/configure" --prefix="$sysroot/$isa" --target="$isa-linux-musl" \
			--disable-shared >configure.log 2>&1 || { cat configure.log >&2; exit 1; }
		make -j"$JOBS" >make.log 2>&1 || { tail -40 make.log >&2; exit 1; }
		if [ -n "$one_ir" ]; then
			[ "$isa" != "$canonical" ] || write_one_ir_modules
			[ -f "$one_ir/qsort.bc" ] || {
				echo "build-musl.sh: $isa's libc needs $canonical's built first" >&2
				exit 1
			}
			lower_one_ir_modules
			make >>make.log 2>&1 || { tail -40 make.log >&2; exit 1; }
		fi
		add_plain_copies
		make install >install.log 2>&1 || { tail -40 install.log >&2; exit 1; }
	)
	# ...and so its <sys/syscall.h> has aarch64's numbers, as musl's
	# Makefile writes one (__NR_ and SYS_ names), for code compiled against
	# this sysroot directly.  musl itself was built with x86-64's.
	if [ "$isa" = x86_64 ]; then
		{
			cat "$src/arch/aarch64/bits/syscall.h.in"
			sed -n -e 's/__NR_/SYS_/p' "$src/arch/aarch64/bits/syscall.h.in"
		} >"$sysroot/$isa/include/bits/syscall.h"
	fi
	echo "$stamp" >"$sysroot/$isa/.musl-stamp"
done
