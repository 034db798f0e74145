#!/bin/sh
# bench/real.sh on packages made here instead of Debian's (their sources
# put in its cache, so nothing is fetched): bench/vm.c and bench/db.c, built
# by both compilers, must agree and be counted; a package whose workload
# runs its program twice must count both processes; the stock builds must
# not link the system's glibc libraries; a package that does not
# build and one whose output differs between the builds must each get a row
# saying so and make the exit status non-zero.
#
#   run-real-bench-test.sh BUILD_DIR WORK_DIR
set -u
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR WORK_DIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$1 work=$2
rm -rf "$work"
mkdir -p "$work/packages" "$work/real/cache" || exit 1

# package NAME SOURCE BUILD WORKLOAD: packages/NAME.sh and NAME's tarball,
# which holds SOURCE as NAME.c.
package() {
	mkdir -p "$work/src/$1-1.0"
	cp "$2" "$work/src/$1-1.0/$1.c"
	tar -C "$work/src" -czf "$work/real/cache/$1_1.0.orig.tar.gz" "$1-1.0"
	printf 'pkg_source=%s\npkg_programs=%s\npkg_build() { %s; }\npkg_workload() { %s; }\n' \
		"$1" "$1" "$3" "$4" >"$work/packages/$1.sh"
}
cat >"$work/which.c" <<'EOF'
#include <stdio.h>
int main(void) {
#ifdef __popcorn__
  puts("popcorn");
#else
  puts("stock");
#endif
  return 0;
}
EOF
package vm "$top/bench/vm.c" '$CC $CFLAGS -o vm vm.c' '$RUN ./vm 4000'
package db "$top/bench/db.c" '$CC $CFLAGS -o db db.c' '$RUN ./db 3000'
# Its build fails if a compiler links a library of the system's glibc, as
# configure's probes would (they found glibc's libz.a and enabled zlib).
package isolated "$top/bench/vm.c" '! $CC -o probe isolated.c -lc_nonshared && $CC $CFLAGS -o isolated isolated.c' \
	'$RUN ./isolated 100'
package twice "$top/bench/vm.c" '$CC $CFLAGS -o twice twice.c' '$RUN ./twice 4000; $RUN ./twice 4000'
package broken "$work/which.c" 'false' '$RUN ./broken'
package differs "$work/which.c" '$CC $CFLAGS -o differs differs.c' '$RUN ./differs'

"$top/bench/real.sh" "$build" --packages "$work/packages" --workdir "$work/real" --starts 5 \
	>"$work/out" 2>"$work/log"
status=$?
cat "$work/out"

failed=0
check() { # DESCRIPTION COMMAND...
	what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failed=1; fi
}
# row PACKAGE: the package's line of the table.
row() { grep "^$1 " "$work/out"; }
# ir PACKAGE stock|popcorn: its instruction count, from the results file.
ir() { awk -F'\t' -v p="$1" -v c="$2" '$1 == p { print c == "stock" ? $3 : $4 }' "$work/real/results"; }
numeric_row() { row "$1" | grep -Eq "^$1 +ok +\| +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]{3} \| +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{3} "; }
# Equal within 0.1%: the two runs differ in nothing but their process IDs.
twice_counted() {
	awk -v one="$(ir vm "$1")" -v two="$(ir twice "$1")" \
		'BEGIN { exit !(one > 0 && two > 1.998 * one && two < 2.002 * one) }'
}

check "the exit status is 1 (got $status)" [ "$status" -eq 1 ]
check "vm is measured" numeric_row vm
check "db is measured" numeric_row db
check "the stock builds link no glibc library" numeric_row isolated
check "both runs of twice are counted, stock" twice_counted stock
check "both runs of twice are counted, popcorn" twice_counted popcorn
check "broken's row says it does not build" eval 'row broken | grep -q "BUILD-FAIL.*does not build: popcorn stock-x86_64 stock-aarch64"'
check "differs' row says the outputs differ" eval 'row differs | grep -q "DIFF .*output differs"'
# The geometric mean of the instruction ratios of the rows that are ok:
# differs' output is not the same work, so its ratio must not count.
geomean_ok() { awk -F'\t' '$2 == "ok" { s += log($4 / $3); n++ } END { printf "%.3f", exp(s / n) }' "$work/real/results"; }
check "the geometric mean of the rows that are ok" eval 'grep -Eq "^geomean +\| +$(geomean_ok) \|" "$work/out"'
check "the start-up line" eval 'grep -Eq "^Start-up, hello world, median of 5 runs: stock [0-9]+ us, popcorn [0-9]+ us \([0-9.]+x\), popcorn with POPCORN_CONTROL=off [0-9]+ us" "$work/out"'
# Functions are matched by name across the builds, each build's own
# counted, and the ten that grew most listed.
counted() { awk -F'\t' -v f="$2" '$1 == f && $2 > 1000 { found = 1 } END { exit !found }' "$work/real/vm/$1.functions"; }
check "vm's execute is counted in the stock build" counted stock-x86_64 execute
check "vm's execute is counted in the popcorn build" counted popcorn execute
check "vm's recursive execute is one function, not one per level" eval '! grep -q "^execute'"'"'" "$work/real/vm/popcorn.functions"'
# memcpy and memset, assembly without a symbol size, are named by their
# symbols (.init and .fini, a few instructions with no object, stay unnamed).
check "every function that counts in vm's popcorn build has a name" \
	eval '! grep -Eq "^0x[0-9a-f]+	[0-9]{4,}$" "$work/real/vm/popcorn.functions"'
check "vm's ten functions over stock" eval '[ "$(sed -n "/^== vm:/,/^$/p" "$work/real/offenders.txt" | grep -c "^ *-*[0-9]")" -eq 10 ]'
[ $failed -eq 0 ] || { echo "real.sh's log:"; cat "$work/log"; }
exit $failed
