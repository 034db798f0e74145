#!/bin/sh
# An assembly source that needs the preprocessor (.S) and holds code only
# under one ISA's macros, as packages ship them (zstd's x86-64 Huffman
# decoder, chosen by __x86_64__ in C as well): popcorn defines no ISA's
# macros, so it comes to nothing and the program builds on its portable
# path, with the .S in its build line, compiled alone (-c) or with C.  A .S
# with assembly left after preprocessing, a plain .s, and -x assembler are
# still refused, naming the file, with a non-zero status.
#
#   assembly-by-isa.sh BIN_DIR WORK_DIR CLANG
set -eu
[ $# -eq 3 ] || { echo "usage: $0 BIN_DIR WORK_DIR CLANG" >&2; exit 2; }
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail=0

cat >decode_amd64.S <<'ASM'
/* Used only where the C code asks for it, by the same macro. */
#if defined(__x86_64__) && !defined(NO_ASM)
	.text
	.globl decode_fast
decode_fast:
	lea 1(%rdi), %rax
	ret
#endif
ASM
cat >main.c <<'C'
#include <stdio.h>
#if defined(__x86_64__)
long decode_fast(long);
#define decode(x) decode_fast(x)
#else
static long decode(long x) { return x + 1; }
#endif
int main(void) { printf("decoded %ld\n", decode(41)); return 0; }
C

"$bin/popcorn-clang" -O2 main.c decode_amd64.S -o together 2>err-together.txt ||
	{ echo "FAIL: main.c with decode_amd64.S did not build:"; cat err-together.txt; fail=1; }
"$bin/popcorn-clang" -O2 -c decode_amd64.S -o decode_amd64.o 2>err-alone.txt ||
	{ echo "FAIL: decode_amd64.S -c did not build:"; cat err-alone.txt; fail=1; }
"$bin/popcorn-clang" -O2 -c main.c -o main.o &&
	"$bin/popcorn-clang" main.o decode_amd64.o -o separate 2>err-separate.txt ||
	{ echo "FAIL: linking main.o with decode_amd64.o failed:"; cat err-separate.txt; fail=1; }
for exe in together separate; do
	[ -x "$exe" ] || continue
	out=$(./"$exe") || { echo "FAIL: ./$exe exited with $?"; fail=1; }
	[ "$out" = "decoded 42" ] || { echo "FAIL: ./$exe printed '$out', not the portable path's 'decoded 42'"; fail=1; }
done

# refused NAME WHAT ARGS...: the build must fail, naming the file.
refused() {
	name=$1 what=$2
	shift 2
	if "$bin/popcorn-clang" "$@" 2>"err-$name.txt"; then
		echo "FAIL: $what was accepted"
		fail=1
	elif ! grep -q "$name.*assembly is specific to one ISA" "err-$name.txt"; then
		echo "FAIL: $what: no error naming $name:"
		cat "err-$name.txt"
		fail=1
	fi
}
cat >kept.S <<'ASM'
	.text
	.globl f
f:
	ret
ASM
refused kept.S "a .S with assembly left after preprocessing" -c kept.S -o kept.o
grep -q "after preprocessing it still holds '.text'" err-kept.S.txt ||
	{ echo "FAIL: the refusal of kept.S does not quote what is left:"; cat err-kept.S.txt; fail=1; }
cp kept.S plain.s
refused plain.s "a .s file" -c plain.s -o plain.o
printf '#if defined(__x86_64__)\n\tret\n#endif\n' >guarded.asm
refused guarded.asm "-x assembler" -x assembler -c guarded.asm -o guarded.o

[ "$fail" = 0 ] && echo "PASS: assembly chosen by ISA macros builds the portable path; other assembly is refused"
exit "$fail"
