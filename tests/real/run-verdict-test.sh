#!/bin/sh
# run.sh's verdict on crafted results, no package built: a suite that left
# no test log or passed no test, and a migrating pass in which nothing shows
# that a program moved, must fail the package; a complete result must pass.
#
#   run-verdict-test.sh WORK_DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 WORK_DIR" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
rm -rf "$1"
mkdir -p "$1"
cd "$1"
failed=0

# package NAME: a package that built and whose workload agreed, in $pkgdir.
package() {
	pkgdir=$(pwd)/$1 built=yes same=yes pkg_unportable= pkg_musl_differences= migrate=
	mkdir -p "$pkgdir/popcorn/src" "$pkgdir/baseline/src"
}

# expect VERDICT CASE: the verdict is VERDICT (or, with VERDICT "not ok",
# anything else than ok).
expect() {
	got=$(verdict)
	case $1 in
	"not ok") [ "$got" != ok ] ;;
	*) [ "$got" = "$1" ] ;;
	esac && { echo "ok: $2: $got"; return; }
	echo "FAIL: $2: the verdict is '$got', expected $1"
	failed=1
}

package no-log # the automake harness left no test-suite.log
for flavor in popcorn baseline; do
	out=$pkgdir/$flavor
	counts $(automake_counts "$pkgdir/$flavor/src")
done
expect "not ok" "no test log in either build"

package complete
printf '# TOTAL: 5\n# PASS: 4\n# XFAIL: 1\n' >"$pkgdir/popcorn/src/test-suite.log"
cp "$pkgdir/popcorn/src/test-suite.log" "$pkgdir/baseline/src"
for flavor in popcorn baseline; do
	out=$pkgdir/$flavor
	counts $(automake_counts "$pkgdir/$flavor/src")
done
expect ok "5 of 5 tests in both builds"

migrate="random=0.001;seed=1;nodes=1,2,0"
cp "$pkgdir/popcorn/counts" "$pkgdir/popcorn/counts-migrating"
: >"$pkgdir/popcorn/aarch64-starts"
expect "not ok" "migrating to node 1, no aarch64 node started"

# The recorder that check_migrating puts on PATH, started as a node is.
record_starts "$pkgdir/node-bin" qemu-aarch64 "$pkgdir/popcorn/aarch64-starts"
(PATH=$pkgdir/node-bin:$PATH && env -i "$(command -v qemu-aarch64)" --version >/dev/null)
expect ok "migrating to node 1, an aarch64 node started"

migrate="random=0.001;seed=1;nodes=2,0"
: >"$pkgdir/popcorn/aarch64-starts"
expect "not ok" "migrating to node 2 alone: no start shows a move"

package passes-none # a suite that ran its tests and passed none, in both builds
for flavor in popcorn baseline; do
	printf '# TOTAL: 6\n# PASS: 0\n' >"$pkgdir/$flavor/src/test-suite.log"
	out=$pkgdir/$flavor
	counts $(automake_counts "$pkgdir/$flavor/src")
done
expect "not ok" "0 of 6 tests passed in both builds"
exit $failed
