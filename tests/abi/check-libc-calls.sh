#!/bin/sh
# The libc calls whose arguments or result the two conventions pass in
# different places.  A program's call is lowered from aarch64 IR (clang's
# AAPCS64 lowering, then the x86-64 back end); x86-64 musl was compiled from
# x86-64 IR (clang's x86-64 lowering).  This script makes clang lower every
# function of musl's headers that libc.a defines, and every function-pointer
# type of the headers (libc's calls back into the program), both ways: one
# generated C file takes the address of each, so each gets an IR
# declaration with its lowered signature.  It then compares the two
# declarations as the x86-64 back end places them: a scalar per register or
# stack slot (aggregates split, ptr as i64), byval and the extension
# attributes kept.  Each function whose places differ must be named in
# compiler/llc/LibcCallRules.def (popcorn-llc rewrites the program's calls
# to it); a name there that differs in nothing is an error too.  The
# complex multiplication and division routines clang calls from the
# program's IR (__mulsc3, ...) are compared too: they are compiled natively
# per ISA, in the builtins library next to libc.
#
#   check-libc-calls.sh SYSROOT CLANG NM RULES_DEF WORK_DIR
#
# shellcheck disable=SC2046 # $(flags) splits on purpose
set -eu
if [ $# -ne 5 ]; then
	echo "usage: $0 SYSROOT CLANG NM RULES_DEF WORK_DIR" >&2
	exit 2
fi
sysroot=$(cd "$1" && pwd) clang=$2 nm=$3 work=$5
rules=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
[ -f "$rules" ] || { echo "check-libc-calls.sh: no rules file '$4'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
inc=$sysroot/aarch64/include
rm -rf "$work"
mkdir -p "$work"
cd "$work"
resource=$("$clang" -print-resource-dir)
fail() { echo "FAIL: $*"; exit 1; }

# Each ISA's own headers and types, as its musl was built (check-abi.sh).
flags() {
	echo "--target=$1-linux-musl -nostdinc -isystem $sysroot/$1/include -isystem $resource/include -D_GNU_SOURCE -w"
	if [ "$1" = x86_64 ]; then
		echo -mlong-double-128 -funsigned-char -Xclang -fwchar-type=int -Xclang -fno-signed-wchar
	fi
}

# 1. Every public header (as check-abi.sh includes them) and its AST.
find "$inc" -name '*.h' | sed "s,^$inc/,," | LC_ALL=C sort | while read -r h; do
	case $h in bits/* | sys/kd.h | sys/vt.h | sys/soundcard.h | c++/*) continue ;; esac
	echo "#include <$h>"
done >headers.h
"$clang" $(flags aarch64) -fsyntax-only -Xclang -ast-dump -fno-color-diagnostics -x c headers.h >ast.txt ||
	fail "the aarch64 headers do not compile together"

# 2. The functions: declared at file scope, not static (an inline helper is
#    compiled into the program), and defined by libc.a.  The callbacks:
#    every pointer-to-function type of a parameter, member, typedef or
#    variable ("R (*)(A...)"; an unprototyped "()" says nothing to check),
#    and every typedef of a function type.
sed -n "s/^|-FunctionDecl [^']* \([A-Za-z_][A-Za-z0-9_]*\) '[^']*'\( [a-z]*\)*$/\1&/p" ast.txt |
	grep -v ' static' | sed 's/|-.*//' | LC_ALL=C sort -u |
	LC_ALL=C comm -12 - "$sysroot/libc-functions.txt" >functions.lst
grep -E "^[| \`]*-(ParmVarDecl|FieldDecl|TypedefDecl|VarDecl) " ast.txt | grep -o "'[^']*'" | tr -d "'" |
	grep -E '^[^()]*\(\*\)\(.+\)$' | LC_ALL=C sort -u >callback-types.lst
grep -E "^[| \`]*-TypedefDecl " ast.txt | grep -v "(\*" |
	sed -n "s/.* \([A-Za-z_][A-Za-z0-9_]*\) '[^']*([^']*)'.*/\1/p" | LC_ALL=C sort -u >function-typedefs.lst
# The complex arithmetic routines both ISAs' builtins define, with
# compiler-rt's prototypes: __mul?c3 and __div?c3, s float, d double, t
# long double (x: x87's, x86-64 only).
for isa in aarch64 x86_64; do
	"$nm" --defined-only "$sysroot/$isa/lib/libpopcorn-builtins.a" 2>"nm-$isa.err" | sed -n 's/.* T \(__\(mul\|div\)[sdt]c3\)$/\1/p' |
		LC_ALL=C sort -u >"builtins-$isa.lst"
done
LC_ALL=C comm -12 builtins-aarch64.lst builtins-x86_64.lst >builtins.lst
[ "$(wc -l <builtins.lst)" -eq 6 ] || fail "expected 6 complex routines in both builtins libraries, found: $(tr '\n' ' ' <builtins.lst)"
while read -r f; do
	case $f in *sc3) t=float ;; *dc3) t=double ;; *tc3) t='long double' ;; esac
	echo "$t _Complex $f($t, $t, $t, $t);"
done <builtins.lst >builtins.h
cat builtins.lst >>functions.lst
nfunctions=$(wc -l <functions.lst) ncallbacks=$(($(wc -l <callback-types.lst) + $(wc -l <function-typedefs.lst)))
[ "$nfunctions" -ge 1000 ] || fail "only $nfunctions libc functions found in $inc (enumeration broken?)"
[ "$ncallbacks" -ge 15 ] || fail "only $ncallbacks callback types found in $inc (enumeration broken?)"

# 3. The C file: the address of each function (#undef: some are macros
#    too) and of a function of each callback type, __popcorn_callback_N.
{
	cat headers.h builtins.h
	n=0
	while read -r t; do
		n=$((n + 1))
		echo "extern __typeof__(*($t)0) __popcorn_callback_$n; /* $t */"
	done <callback-types.lst
	while read -r t; do echo "extern $t __popcorn_callback_$t;"; done <function-typedefs.lst
	echo "void *const probes[] = {"
	sed 's/.*/#undef &\n\t(void *)\&&,/' functions.lst
	n=0
	while read -r t; do n=$((n + 1)) && echo "	(void *)&__popcorn_callback_$n,"; done <callback-types.lst
	sed 's/.*/\t(void *)\&__popcorn_callback_&,/' function-typedefs.lst
	echo "};"
} >probes.c
for isa in aarch64 x86_64; do
	"$clang" $(flags "$isa") -S -emit-llvm -o "probes-$isa.ll" probes.c 2>"probes-$isa.err" ||
		{ cat "probes-$isa.err"; fail "compiling probes.c for $isa"; }
	ndeclared=$(grep -c '^declare ' "probes-$isa.ll" || true)
	[ "$ndeclared" -eq $((nfunctions + ncallbacks)) ] ||
		fail "$isa: $ndeclared declarations for $nfunctions functions and $ncallbacks callbacks"
done

# 4. The functions whose places differ, with both lowerings.
awk -f "$here/lowered-places.awk" probes-aarch64.ll probes-x86_64.ll >differ.tsv ||
	fail "comparing the two lowerings"
[ -s differ.tsv ] || fail "no function differs (comparison broken? fopencookie does)"

# 5. Against the rules.
sed -n 's/^LIBC_[A-Z]*(\([A-Za-z0-9_]*\),.*/\1/p; s/^LIBC_[A-Z]*(\([A-Za-z0-9_]*\)).*/\1/p' "$rules" |
	LC_ALL=C sort -u >handled.lst
cut -f1 differ.tsv | LC_ALL=C sort -u >differ.lst
status=0
LC_ALL=C comm -23 differ.lst handled.lst >unhandled.lst
if [ -s unhandled.lst ]; then
	echo "FAIL: $(wc -l <unhandled.lst) functions of libc (or builtins) passed differently on x86-64, not in $rules:"
	# a callback by its type: libc calls the program that way (no rule
	# can mend that: it rewrites the program's calls)
	awk -F '\t' 'FILENAME == "callback-types.lst" { type["__popcorn_callback_" FNR] = $0; next }
		FILENAME == "unhandled.lst" { want[$1] = 1; next }
		($1 in want) { name = $1 in type ? "callback " type[$1] : $1
			sub(/^__popcorn_callback_/, "callback ", name)
			printf "  %s: aarch64 IR %s; x86-64 native %s\n", name, $2, $3 }' callback-types.lst unhandled.lst differ.tsv
	status=1
fi
LC_ALL=C comm -13 differ.lst handled.lst >stale.lst
if [ -s stale.lst ]; then
	echo "FAIL: $rules names functions both conventions pass alike: $(tr '\n' ' ' <stale.lst)"
	status=1
fi
summary="$nfunctions functions and $ncallbacks callback types compared; $(wc -l <differ.lst) passed differently"
[ "$status" -eq 0 ] || { echo "libc-calls: $summary"; exit 1; }
echo "ok: libc-calls: $summary, each handled by a rule"
