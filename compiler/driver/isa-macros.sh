#!/bin/sh
# The macros popcorn-clang undefines so that the preprocessor sees no ISA
# (docs/architecture.md), written as C string literals, one a line, for
# IsaMacros.cpp.
#
#   isa-macros.sh CLANG OUTPUT
#
# An ISA's macros are derived, not listed: those CLANG predefines for one of
# popcorn's ISAs and not for the other.  They name the ISA (__aarch64__,
# __x86_64__, __amd64), its features (__ARM_NEON, __ARM_FEATURE_*, __SSE2__,
# __MMX__), its conventions (__ARM_PCS_AAPCS64, __REGISTER_PREFIX__) or what
# its hardware promises: __FP_FAST_FMA (a fused multiply-add as fast as a
# multiply; x86-64's baseline has none, and fma() is a library call there)
# and __GCC_HAVE_SYNC_COMPARE_AND_SWAP_16 (x86-64's baseline has no 16-byte
# compare-and-swap).  Options the driver passes on add some (-ffast-math:
# __ARM_FP_FAST), so each ISA is asked with and without them.
#
# What both ISAs predefine stays: the OS and object format (__linux__,
# __unix__, __ELF__), the compare-and-swap widths both have, and the C
# ABI's sizes, limits and byte order, which are aarch64's on every ISA
# (the IR is aarch64's), as are __LDBL_* (binary128) and __WCHAR_TYPE__.
# Two more that aarch64 alone predefines describe that ABI, not the ISA,
# and stay: plain char and wchar_t are unsigned.
#
# One that both predefine goes: __GCC_ASM_FLAG_OUTPUTS__ says that inline
# assembly may return condition flags, and popcorn-clang compiles no inline
# assembly.  __GCC_HAVE_DWARF2_CFI_ASM stays: it says that the compiler's
# output carries call-frame information, which popcorn's does on every ISA.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CLANG OUTPUT" >&2; exit 2; }
clang=$1 output=$2
tmp=$output.tmp
trap 'rm -f "$tmp".*' EXIT

# names TRIPLE OPTIONS...: the macros CLANG predefines for TRIPLE, sorted.
names() {
	triple=$1
	shift
	"$clang" --target="$triple" -nostdinc "$@" -dM -E -x c /dev/null |
		awk '$1 == "#define" { print $2 }' | sort -u
}

: >"$tmp.isa"
for options in "" "-ffast-math -fshort-enums -fshort-wchar"; do
	names aarch64-linux-musl $options >"$tmp.aarch64"
	names x86_64-linux-musl $options >"$tmp.x86_64"
	[ -s "$tmp.aarch64" ] && [ -s "$tmp.x86_64" ] ||
		{ echo "$0: $clang predefines no macros" >&2; exit 1; }
	comm -3 "$tmp.aarch64" "$tmp.x86_64" | tr -d '\t' >>"$tmp.isa"
done
{
	grep -vx -e __CHAR_UNSIGNED__ -e __WCHAR_UNSIGNED__ "$tmp.isa"
	echo __GCC_ASM_FLAG_OUTPUTS__
} | sort -u | sed 's/.*/"&",/' >"$tmp.inc"
mv "$tmp.inc" "$output"
