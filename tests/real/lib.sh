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
