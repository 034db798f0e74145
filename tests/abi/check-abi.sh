#!/bin/sh
# The musl ABI check.  User code is always compiled with aarch64's headers,
# so the x86-64 musl must agree with them on every public type (sizeof,
# _Alignof, offsetof of each member) and every integer constant (O_*, FE_*,
# SIG*, E*, ...).  This script lists them from the aarch64 headers (clang's
# AST and -dD), generates ONE C file that prints "name<TAB>value" for each,
# builds it per ISA against that ISA's own installed headers, runs x86-64
# natively and aarch64 under qemu, and diffs the two outputs.  It fails on
# any difference not named in allowlist.txt (beside this script).
#
#   check-abi.sh SYSROOT CLANG LLD QEMU_AARCH64 WORK_DIR
#
# shellcheck disable=SC2046,SC2254 # $(flags) splits on purpose; allowlist entries are globs
set -eu
if [ $# -ne 5 ]; then
	echo "usage: $0 SYSROOT CLANG LLD QEMU_AARCH64 WORK_DIR" >&2
	exit 2
fi
sysroot=$1 clang=$2 lld=$3 qemu=$4 work=$5
allowlist=$(cd "$(dirname "$0")" && pwd)/allowlist.txt
inc=$sysroot/aarch64/include
rm -rf "$work"
mkdir -p "$work"
cd "$work"
resource=$("$clang" -print-resource-dir)

# Each ISA's own headers, as its musl was built (x86-64: binary128 long
# double, unsigned char and wchar_t; libc-patches/build-musl.sh).
# _GNU_SOURCE shows every declaration musl has.
flags() {
	echo "--target=$1-linux-musl -nostdinc -isystem $sysroot/$1/include -isystem $resource/include -D_GNU_SOURCE -w -ferror-limit=0"
	if [ "$1" = x86_64 ]; then
		echo -mlong-double-128 -funsigned-char -Xclang -fwchar-type=int -Xclang -fno-signed-wchar
	fi
}
fail() { echo "FAIL: $*"; exit 1; }
command -v "$qemu" >/dev/null || fail "qemu-aarch64 not found: '$qemu'"

# 1. Every public header, all included together.  Not included directly:
#    bits/*   internal pieces of the public headers, not guarded for direct
#             inclusion; their declarations are checked through the headers.
#    sys/kd.h sys/vt.h sys/soundcard.h   only "#include <linux/...>": the
#             Linux kernel's UAPI headers, which are not musl's and are not
#             in the sysroot.
#    c++/*    libc++'s headers, next to musl's: C++, not musl's ABI.
find "$inc" -name '*.h' | sed "s,^$inc/,," | LC_ALL=C sort | while read -r h; do
	case $h in bits/* | sys/kd.h | sys/vt.h | sys/soundcard.h | c++/*) continue ;; esac
	echo "#include <$h>"
done >headers.h
[ "$(wc -l <headers.h)" -ge 150 ] || fail "only $(wc -l <headers.h) headers found in $inc"

# 2. Types: records and typedefs declared in the sysroot's headers, from the
#    text AST dump.  A node's depth is its tree prefix's length / 2; its file
#    is the last file name printed before its own location (clang prints a
#    file name only when it changes).  Members are named fields and, through
#    dotted paths, the fields of anonymous-typed members (offsetof(siginfo_t,
#    __si_fields.__si_common.__first.__piduid.si_pid)); bitfields are skipped
#    (no offsetof; their containing struct's size and neighbours still are).
#    Enumerators are integer constants: V(...) lines like the macros.
"$clang" $(flags aarch64) -fsyntax-only -Xclang -ast-dump -fno-color-diagnostics -x c headers.h >ast.txt ||
	fail "the aarch64 headers do not compile together"
awk -v inc="$inc/" '
function close_top(   i) {
	i = top--
	if (sn[i] == "") { pend[sd[i]] = sm[i]; return }   # for the field/typedef that follows
	if (sv[i]) emit(sn[i], sm[i])
}
function emit(t, mem,   n, k, m) {
	if (seen[t]++) return
	print "S(" t ")"
	n = split(mem, m, "\n")
	for (k = 1; k <= n; k++) if (m[k] != "") print (sub(/!$/, "", m[k]) ? "F(" : "O(") t ", " m[k] ")"
}
function prefixed(p, mem,   n, k, m, r) {   # the anonymous record mem, reached through p
	n = split(mem, m, "\n"); r = ""
	for (k = 1; k <= n; k++) if (m[k] != "") r = r "\n" p m[k]
	return r
}
{
	d = match($0, /^[| `]*-/) ? RLENGTH / 2 : 0
	node = substr($0, RLENGTH + 1); kind = node; sub(/ .*/, "", kind)
	# The file of this node: quoted types hold "(unnamed at FILE:L:C)", no location.
	s = $0; gsub(/\047[^\047]*\047/, "", s); first = ""
	while (match(s, /(\/[^ :<>,]+|<built-in>|<scratch space>|line|col):[0-9]+/)) {
		f = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH); sub(/:[0-9]+$/, "", f)
		if (f != "line" && f != "col") cur = f
		if (first == "") first = cur
	}
	insys = index(first, inc) == 1
	# A field waits for its next line: a bitfield has its width as first child.
	if (pf_set && !(d == pfd + 1 && kind ~ /Expr|Literal/)) sm[top] = sm[top] pf
	pf_set = 0
	while (top > 0 && sd[top] >= d) close_top()
	pre = node; sub(/\047.*/, "", pre); nw = split(pre, w, " "); name = w[nw]
	# of an anonymous record type: "(unnamed union at F:L:C)", "S::(anonymous at F:L:C)"
	anon = node ~ /^[^\047]*\047(struct|union) [^\047]*\((unnamed|anonymous) [^\047]*\)(\[[0-9]+\])?\047/
	if (kind == "RecordDecl" && w[nw] == "definition") {
		top++; sd[top] = d; sv[top] = insys; sm[top] = ""
		sn[top] = (w[nw - 1] == "struct" || w[nw - 1] == "union") ? "" : w[nw - 2] " " w[nw - 1]
	} else if (kind == "FieldDecl" && top > 0 && sd[top] == d - 1) {
		named = name !~ /:/ && name != "implicit"
		pf = named ? "\n" name (node ~ /^[^\047]*\047[^\047]*\[\]\047/ ? "!" : "") : ""   # "!": flexible array
		if (anon && named) pf = pf prefixed(name (node ~ /\)\[[0-9]+\]\047/ ? "[0]." : "."), pend[d])
		else if (anon) pf = prefixed("", pend[d])     # C11 anonymous member
		pf_set = 1; pfd = d
	} else if (kind == "TypedefDecl" && d == 1 && insys && node !~ / implicit /) {
		ty = node; sub(/^[^\047]*/, "", ty); canon = ty; sub(/.*\047:\047/, "\047", canon)
		# function types have no size; pointers to them ("(*") do
		if (canon ~ /\)\047$/ && canon !~ /\(\*/) next
		if (ty ~ ("^\047(struct|union) " name "\047:\047" name "\047$")) emit(name, pend[d])
		else emit(name, "")
	} else if (kind == "EnumConstantDecl" && insys) print "V(" name ")"
}
END { while (top > 0) close_top() }' ast.txt >types.lst

# 3. Macros: object-like ones defined in the sysroot's headers (line
#    markers of -E -dD tell where); which of them are integer constants,
#    the compiler decides below.  names.lst has every macro name, for the
#    #undef of those that are also member or type names.
"$clang" $(flags aarch64) -E -dD -x c headers.h | awk -v inc="$inc/" '
/^# [0-9]+ "/ { f = $3; gsub(/"/, "", f); next }
/^#define / { n = $2; sub(/\(.*/, "", n); all[n] = 1
	if (index(f, inc) == 1 && $2 !~ /\(/ && NF > 2) val[n] = 1; next }
/^#undef / { delete val[$2] }
END { for (n in all) print n >"names.lst"; for (n in val) print "V(" n ")" }' | LC_ALL=C sort -u >macros.lst

# 4. The C file: V(constant), S(type), O(type, member) (F() for a flexible
#    array member, which has no size), one per line, so that a compiler error
#    points at the entry it rejects.  V() asserts that its argument is an
#    integer constant expression and prints its value and type.  Member and
#    type names that are also macros (sa_handler, st_atime, ...) are #undef'd
#    between the constants and the types.
cat >prologue.h <<'EOF'
#include <stdio.h>
#include <stddef.h>
static void pv(const char *n, int neg, unsigned long long v, const char *t)
{ if (neg) printf("%s\t%lld %s\n", n, (long long)v, t); else printf("%s\t%llu %s\n", n, v, t); }
#define V(n) { _Static_assert((n) * 0 + 1, ""); pv(#n, (n) < 0, (n), _Generic((n) + 0, int: "int", \
	unsigned: "unsigned", long: "long", unsigned long: "unsigned long", long long: "long long", \
	unsigned long long: "unsigned long long", default: "other")); }
#define S(t) printf("sizeof(%s)\t%zu\n_Alignof(%s)\t%zu\n", #t, sizeof(t), #t, _Alignof(t));
#define O(t, m) printf("offsetof(%s, %s)\t%zu (size %zu)\n", #t, #m, offsetof(t, m), sizeof(((t *)0)->m));
#define F(t, m) printf("offsetof(%s, %s)\t%zu (flexible)\n", #t, #m, offsetof(t, m));
/* what the other ISA's headers do not have */
#define XV(n) printf("%s\tmissing\n", #n);
#define XS(t) printf("sizeof(%s)\tmissing\n_Alignof(%s)\tmissing\n", #t, #t);
#define XO(t, m) printf("offsetof(%s, %s)\tmissing\n", #t, #m);
#define XF(t, m) XO(t, m)
EOF
grep '^V' types.lst >>macros.lst || true
LC_ALL=C sort -u -o macros.lst macros.lst   # an enumerator may also be a macro
# The basic types too: long double is binary128 on x86-64 only by -mlong-double-128.
printf 'S(%s)\n' char short int long 'long long' float double 'long double' 'void *' _Bool __int128 >records.lst
grep -v '^V' types.lst >>records.lst || true
LC_ALL=C sort -u names.lst >names.sorted
tr -c 'A-Za-z0-9_\n' '\n' <records.lst | LC_ALL=C sort -u | LC_ALL=C comm -12 - names.sorted | sed 's/^/#undef /' >undefs.h
generate() { # $1: output; the entries from macros.lst and records.lst
	{ cat headers.h prologue.h; echo "static void constants(void) {"; cat macros.lst
	  echo "}"; cat undefs.h; echo "static void types(void) {"; cat records.lst
	  echo "}"; echo "int main(void) { constants(); types(); return 0; }"; } >"$1"
}
rejected() { # $1: ISA: the entries of abi-$1.c that its compiler rejects
	"$clang" $(flags "$1") -fsyntax-only "abi-$1.c" 2>&1 | sed -n "s,^abi-$1\.c:\([0-9]*\):.*,\1,p" |
		awk 'NR == FNR { bad[$1] = 1; next } (FNR in bad) && /^[VSOF]\(/' - "abi-$1.c"
}
# aarch64 is the reference: what its own headers reject (macros that are no
# integer constants, incomplete types, ...) is no entry.  Twice: an error
# can hide the next one on the same entry.
for _ in 1 2; do
	generate abi-aarch64.c
	rejected aarch64 >rejected.lst
	[ -s rejected.lst ] || break
	cat rejected.lst >>dropped.lst
	for f in macros.lst records.lst; do grep -vxF -f rejected.lst "$f" >"$f.new" || true; mv "$f.new" "$f"; done
done
[ ! -s rejected.lst ] || fail "aarch64 still rejects entries of abi-aarch64.c after 2 passes: $(head -3 rejected.lst)"
# On x86-64, what its headers lack (a member, a macro) is printed as missing.
cp abi-aarch64.c abi-x86_64.c
rejected x86_64 >missing.lst
if [ -s missing.lst ]; then
	awk 'NR == FNR { bad[$0] = 1; next } ($0 in bad) { $0 = "X" $0 } 1' missing.lst abi-aarch64.c >abi-x86_64.c
fi

ntypes=$(grep -c '^S' records.lst || true) nmembers=$(grep -c '^[OF]' records.lst || true)
nconst=$(grep -c '^V' macros.lst || true)
[ "$ntypes" -ge 200 ] || fail "only $ntypes types found in $inc (enumeration broken?)"
[ "$nmembers" -ge 1000 ] || fail "only $nmembers members found in $inc (enumeration broken?)"
[ "$nconst" -ge 1000 ] || fail "only $nconst integer constants found in $inc (enumeration broken?)"

# 5. Build, link statically and run each ISA's program.
for isa in x86_64 aarch64; do
	lib=$sysroot/$isa/lib
	"$clang" $(flags "$isa") -O0 -c "abi-$isa.c" -o "abi-$isa.o" 2>"build-$isa.err" ||
		{ cat "build-$isa.err"; fail "compiling abi-$isa.c"; }
	"$lld" -static -o "abi-$isa" "$lib/crt1.o" "$lib/crti.o" "abi-$isa.o" --start-group "$lib/libc.a" \
		"$lib/libpopcorn-builtins.a" --end-group "$lib/crtn.o" || fail "linking abi-$isa"
done
./abi-x86_64 >x86_64.out || fail "abi-x86_64 exited with $?"
"$qemu" ./abi-aarch64 >aarch64.out || fail "abi-aarch64 exited with $?"
[ "$(wc -l <x86_64.out)" -eq "$(wc -l <aarch64.out)" ] || fail "the two runs printed different numbers of lines"

# 6. Diff by name.  A difference is allowed if a pattern of the allowlist
#    matches its subject (the macro, or the type of sizeof/_Alignof/offsetof)
#    or its whole key.
paste x86_64.out aarch64.out | awk -F '\t' '$1 != $3 { exit 1 }
	$2 != $4 { s = $1; if (!sub(/^(sizeof|_Alignof)\(/, "", s) || !sub(/\)$/, "", s)) s = $1
		if (sub(/^offsetof\(/, "", s)) sub(/, [^,]*\)$/, "", s)
		print $1 "\t" s "\t" $2 "\t" $4 }' >diffs.tsv || fail "the two runs print different names"
patterns=$(sed -e 's/[[:space:]]*$//' -e '/^#/d' -e '/^$/d' "$allowlist")
nl='
'
set -f # the patterns are globs for case, not for file names
allowed=0 used=
: >unexpected.tsv
while IFS='	' read -r key subject x86 arm; do
	ok=
	IFS=$nl
	for p in $patterns; do
		case $subject in $p) ok=$p && break ;; esac
		case $key in $p) ok=$p && break ;; esac
	done
	unset IFS
	if [ -n "$ok" ]; then
		allowed=$((allowed + 1)) used="$used$nl$ok"
	else printf '%s\t%s\t%s\n' "$key" "$x86" "$arm" >>unexpected.tsv; fi
done <diffs.tsv
# Entries that allow nothing any more should go.
printf '%s\n' "$used" | LC_ALL=C sort -u >used.lst
printf '%s\n' "$patterns" | while IFS= read -r p; do
	grep -qxF -e "$p" used.lst || echo "note: allowlist entry '$p' matches no difference"
done

summary="$ntypes types, $nmembers members, $nconst constants compared; $allowed differences allowlisted"
if [ -s unexpected.tsv ]; then
	echo "FAIL: $(wc -l <unexpected.tsv) ABI differences between x86-64 and aarch64 musl (not in $allowlist):"
	{ printf 'NAME\tX86_64\tAARCH64\n'; cat unexpected.tsv; } | awk -F '\t' '{ printf "  %-48s %-28s %s\n", $1, $2, $3 }'
	echo "musl-abi: $summary, $(wc -l <unexpected.tsv) not"
	exit 1
fi
echo "ok: musl-abi: $summary"
