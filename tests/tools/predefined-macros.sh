#!/bin/sh
# popcorn-clang presents no ISA to the preprocessor.  Its predefined macros
# must be exactly clang's for aarch64 (the C ABI of every ISA in a popcorn
# program), less every ISA's own, plus __popcorn__:
#   - an ISA's own macros: those CLANG predefines for aarch64 or x86-64
#     and not for the other, with the default options, with the options
#     the driver passes on that add some (-ffast-math, -fshort-enums,
#     -fshort-wchar), and with each ISA's newest -march (its feature
#     macros: __AVX512F__, __ARM_FEATURE_SVE2, ...); derived here, so that
#     a macro a future clang adds is caught;
#   - nothing of an ISA family's (__aarch64*, __ARM_*, __x86_64*, __SSE*,
#     __AVX*, ...), whatever the derivation found;
#   - the ISA-neutral ones stay with aarch64's values: the OS, sizes,
#     limits, byte order, and plain char and wchar_t unsigned;
#   - __GCC_ASM_FLAG_OUTPUTS__ goes: popcorn-clang compiles no inline
#     assembly.
#
#   predefined-macros.sh BIN_DIR WORK_DIR CLANG
set -eu
[ $# -eq 3 ] || { echo "usage: $0 BIN_DIR WORK_DIR CLANG" >&2; exit 2; }
bin=$1 work=$2 clang=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail=0

# defines FILE COMMAND...: the #define lines COMMAND prints, sorted.
defines() {
	file=$1
	shift
	"$@" -dM -E -x c /dev/null >"$file.raw" || { echo "FAIL: $* -dM -E failed"; exit 1; }
	grep '^#define ' "$file.raw" | sort -u >"$file"
	[ -s "$file" ] || { echo "FAIL: $* printed no macros"; exit 1; }
}

names() {
	awk '{ print $2 }' "$1" | sort -u
}

# The ISA macros, from clang-19 on its own.
: >isa
for pair in ":" "-ffast-math -fshort-enums -fshort-wchar:-ffast-math -fshort-enums -fshort-wchar" \
	"-march=armv9.4-a+sve2+sme2:-march=x86-64-v4"; do
	a=${pair%%:*} x=${pair#*:}
	defines a64 "$clang" --target=aarch64-linux-musl -nostdinc $a
	defines x64 "$clang" --target=x86_64-linux-musl -nostdinc $x
	names a64 >a64.names
	names x64 >x64.names
	comm -3 a64.names x64.names | tr -d '\t' >>isa
done
grep -vx -e __CHAR_UNSIGNED__ -e __WCHAR_UNSIGNED__ isa | sort -u >isa.sorted
mv isa.sorted isa
for m in __aarch64__ __ARM_NEON __x86_64__ __SSE2__ __AVX2__ __ARM_FEATURE_SVE2; do
	grep -qx "$m" isa || { echo "FAIL: the derivation missed $m: it cannot be trusted"; exit 1; }
done
echo "$(wc -l <isa) ISA macros derived from $clang"

for options in "" "-O2" "-ffast-math -fshort-enums -fshort-wchar" "-std=c89 -g"; do
	label="popcorn-clang ${options:-(no options)}"
	defines popcorn "$bin/popcorn-clang" $options
	defines expected "$clang" --target=aarch64-linux-musl -nostdinc -fno-pic -fno-pie $options
	names popcorn >popcorn.names
	found=$(comm -12 popcorn.names isa | tr '\n' ' ')
	[ -z "$found" ] || { echo "FAIL: $label: ISA macros: $found"; fail=1; }
	family=$(grep -E '^(__aarch64|__AARCH64|__ARM_|__arm|__x86_64|__amd64|__i[3-6]86|__SSE|__AVX|__MMX|__k8|__tune_)' \
		popcorn.names | tr '\n' ' ' || true)
	[ -z "$family" ] || { echo "FAIL: $label: macros of an ISA family: $family"; fail=1; }
	# expected: aarch64's less the ISA's and inline assembly's, plus __popcorn__.
	awk 'NR == FNR { isa[$1] = 1; next } !($2 in isa)' isa expected |
		grep -v '^#define __GCC_ASM_FLAG_OUTPUTS__ ' >kept
	{ cat kept; echo '#define __popcorn__ 1'; } | sort -u >kept.sorted
	if ! cmp -s kept.sorted popcorn; then
		echo "FAIL: $label: predefined macros other than clang's for aarch64 less the ISA's" \
			"(- expected, + popcorn-clang):"
		diff kept.sorted popcorn | grep '^[<>]' | sed 's/^</-/; s/^>/+/'
		fail=1
	fi
	for m in __popcorn__ __LP64__ __BYTE_ORDER__ __SIZEOF_POINTER__ __SIZEOF_LONG_DOUBLE__ \
		__CHAR_UNSIGNED__ __WCHAR_UNSIGNED__ __ELF__ __linux__ __unix__ \
		__GCC_HAVE_SYNC_COMPARE_AND_SWAP_8; do
		grep -qx "$m" popcorn.names || { echo "FAIL: $label: $m is not defined"; fail=1; }
	done
done
[ $fail -eq 0 ] && echo "ok: popcorn-clang presents no ISA"
exit $fail
