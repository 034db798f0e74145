# Helpers for tests/real/run.sh and the package descriptions in packages/.
# Sourced; every function runs in the package's own subshell.

# log MESSAGE...: a progress line on stderr.
log() {
	echo "real: $*" >&2
}

now() {
	date +%s.%N
}

# elapsed START: seconds since START (from now), one decimal.
elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# fetch_source PKG: the upstream tarball of Debian 12's source package PKG,
# downloaded once into $cache by 'apt-get source' (the Debian patches are
# not applied: they would make autotools regenerate files, and the test
# builds the package unchanged).  If the newest source version cannot be
# fetched (a security update missing on the mirror), the older ones are
# tried.  Prints the tarball's path.
fetch_source() {
	pkg=$1
	mkdir -p "$cache"
	tarball=$(find_tarball "$pkg")
	if [ -z "$tarball" ]; then
		(
			cd "$cache"
			apt-get source --download-only "$pkg" >fetch-"$pkg".log 2>&1 && exit 0
			for v in $(apt-cache showsrc "$pkg" | sed -n 's/^Version: //p'); do
				apt-get source --download-only "$pkg=$v" >>fetch-"$pkg".log 2>&1 && exit 0
			done
			exit 1
		) || true
		tarball=$(find_tarball "$pkg")
	fi
	if [ -z "$tarball" ]; then
		log "$pkg: 'apt-get source --download-only $pkg' failed (it needs a deb-src line: scripts/install-deps.sh):"
		cat "$cache/fetch-$pkg.log" >&2
		return 1
	fi
	echo "$tarball"
}

find_tarball() {
	for f in "$cache/$1"_*.orig.tar.*; do
		case $f in *.asc | *"*"*) continue ;; esac
		echo "$f"
		return 0
	done
}

# unpack TARBALL DIR: DIR becomes the tarball's top directory.
unpack() {
	rm -rf "$2" "$2.tmp"
	mkdir -p "$2.tmp"
	tar -xf "$1" -C "$2.tmp"
	mv "$2.tmp"/* "$2"
	rm -rf "$2.tmp"
}

# automake_counts DIR: "PASSED TOTAL" summed over the test-suite.log files
# of automake's parallel test harness under DIR; PASSED counts PASS and
# XFAIL, TOTAL leaves out SKIP.
automake_counts() {
	find "$1" -name test-suite.log -exec cat {} + 2>/dev/null |
		awk '/^# TOTAL:/ { t += $3 } /^# PASS:/ { p += $3 } /^# XFAIL:/ { p += $3 }
		     /^# SKIP:/ { s += $3 } END { print p + 0, t - s }'
}

# counts PASSED TOTAL: the package's test result.
counts() {
	echo "$1 $2" >"$out/counts"
}

# with_timeout SECONDS LOG COMMAND...: runs COMMAND, its output in LOG.
with_timeout() {
	secs=$1 logfile=$2
	shift 2
	timeout "$secs" "$@" >"$logfile" 2>&1
}

# record_starts DIR COMMAND LOG: DIR/COMMAND, for a PATH that starts with
# DIR, runs the COMMAND found on PATH now after adding a line to LOG.
record_starts() {
	real=$(command -v "$2") || { log "no $2 on PATH"; return 1; }
	mkdir -p "$1"
	: >"$3"
	printf '#!/bin/sh\necho started >>"%s"\nexec "%s" "$@"\n' "$3" "$real" >"$1/$2"
	chmod +x "$1/$2"
}

# starts LOG: how many starts record_starts logged in LOG.
starts() {
	if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi
}

# schedule_reaches_aarch64 SCHEDULE: whether POPCORN_MIGRATE=SCHEDULE sends
# the thread to node 1 (aarch64 by default): it names node 1 in nodes=, or
# lists no nodes.  The aarch64 nodes started are what shows that programs
# moved, so a migrating pass must name one.
schedule_reaches_aarch64() {
	case ";$1;" in
	*";nodes="*) echo "$1" | tr ';' '\n' | sed -n 's/^nodes=//p' | tr ',' '\n' | grep -qx 1 ;;
	*) return 0 ;;
	esac
}

# verdict: whether this package passes (and why not), from the flavors'
# results.
verdict() {
	if [ -n "$pkg_unportable" ]; then
		# Refused by the compiler, with its reason: what must happen.
		[ "$built" = no ] && echo ok || echo "declared not portable, but it built"
		return
	fi
	tp=$(cat "$pkgdir/popcorn/counts") tb=$(cat "$pkgdir/baseline/counts")
	set -- $tp $tb
	if [ "$built" != yes ]; then
		echo "does not build with popcorn-clang"
	elif [ "$2" = "?" ] || [ "$2" -eq 0 ]; then
		echo "no test result with popcorn-clang (the suite ran nothing, or its log was not found)"
	elif [ "$1" -eq 0 ]; then
		echo "passes none of $2 tests with popcorn-clang"
	elif [ "$2" != "$4" ]; then
		echo "ran $2 tests with popcorn-clang, $4 with the baseline"
	elif [ $(($1 + ${pkg_musl_differences:-0})) -lt "$3" ]; then
		echo "passes $1 of $2 tests with popcorn-clang, $3 with the baseline"
	elif [ -f "$pkgdir/musl/counts" ] && [ "$1" -lt "$(cut -d' ' -f1 "$pkgdir/musl/counts")" ]; then
		echo "passes $1 of $2 tests with popcorn-clang, $(cut -d' ' -f1 "$pkgdir/musl/counts") with clang and the same musl"
	elif [ "$same" != yes ]; then
		echo "the aarch64 workload differs from x86-64"
	elif [ -f "$pkgdir/popcorn/counts-migrating" ] &&
		[ "$(cat "$pkgdir/popcorn/counts-migrating")" != "$tp" ]; then
		echo "passes $(tr ' ' / <"$pkgdir/popcorn/counts-migrating") tests migrating, $1/$2 at home"
	elif [ -f "$pkgdir/popcorn/counts-migrating" ] && ! schedule_reaches_aarch64 "$migrate"; then
		echo "the migrating schedule names no aarch64 node: nothing shows that a program moved"
	elif [ -f "$pkgdir/popcorn/counts-migrating" ] &&
		[ "$(starts "$pkgdir/popcorn/aarch64-starts")" -eq 0 ]; then
		echo "no program moved to aarch64 while the tests ran migrating"
	else
		echo ok
	fi
}

