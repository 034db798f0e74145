#!/bin/sh
# The real-programs suite: Debian 12 source packages built unchanged with
# popcorn-clang through their own build systems, their own test suites run,
# and a small workload run on the aarch64 image under qemu-aarch64 whose
# output must equal the x86-64 run's.  Every package is also built and
# tested with clang-19 -O2 (C++: clang++-19 -O2) as the baseline.
#
#   tests/real/run.sh BUILD_DIR [--only PKG,PKG] [--workdir DIR] [--jobs N] [--musl-baseline]
#                     [--migrate SCHEDULE]
#
# BUILD_DIR is popcorn's build directory (BUILD_DIR/bin/popcorn-clang).
# Sources come from 'apt-get source' (a deb-src line is needed:
# scripts/install-deps.sh) and are kept in WORKDIR/cache (default WORKDIR:
# BUILD_DIR/real).  Each package is described by packages/PKG.sh: how to
# build it, run its tests and its workload.  Prints a table; the exit status
# is 0 if every package builds, passes as many of its tests as the baseline
# and its aarch64 workload is identical (or, for a package declared not
# portable, if popcorn-clang refuses it with its reason).
#
# The baseline uses the system's C library (glibc), popcorn programs musl.
# A test that fails because of what musl does by design (it accepts every
# locale name, ...) is counted in the package's pkg_musl_differences, with
# the reason.  --musl-baseline adds a third build, clang-19 -O2 against
# popcorn's own x86-64 musl, which tells such tests from toolchain bugs:
# popcorn-clang must then pass as many tests as that build too.
#
# --migrate SCHEDULE runs the popcorn build's tests a second time with
# POPCORN_MIGRATE=SCHEDULE (e.g. 'random=0.01;seed=1;nodes=1,2,0'; it must
# name node 1: the aarch64 nodes started show that programs moved): every
# program the tests run then moves between nodes while it runs, and must
# pass the same tests as when it stays home.
set -eu
# A shell started in the background without job control (CI, nohup ... &)
# ignores SIGINT and SIGQUIT, and so would every test program it starts;
# gnulib's test-execute checks SIGINT's default action.  The tests get the
# defaults (a shell cannot undo an ignore it started with; env can).
if [ -z "${POPCORN_REAL_DEFAULT_SIGNALS:-}" ]; then
	POPCORN_REAL_DEFAULT_SIGNALS=1 exec env --default-signal=INT,QUIT "$0" "$@"
fi
here=$(cd "$(dirname "$0")" && pwd)
all_packages="expat gzip mawk m4 xz-utils pcre2 duktape sqlite3 bzip2 zlib xxhash libdeflate lz4
	re2 libjsoncpp ninja-build fmtlib"

usage() {
	echo "usage: $0 BUILD_DIR [--only PKG,PKG] [--workdir DIR] [--jobs N] [--musl-baseline]" \
		"[--migrate SCHEDULE]" >&2
	echo "packages: $all_packages" >&2
	exit 2
}
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd) || usage
shift
packages=$all_packages
work=$build/real
JOBS=2
musl_baseline=
migrate=
while [ $# -gt 0 ]; do
	case $1 in
	--only) [ $# -ge 2 ] || usage; packages=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--workdir) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || usage; JOBS=$2; shift 2 ;;
	--musl-baseline) musl_baseline=yes; shift ;;
	--migrate) [ $# -ge 2 ] || usage; migrate=$2; shift 2 ;;
	*) usage ;;
	esac
done
for pkg in $packages; do
	[ -f "$here/packages/$pkg.sh" ] || { echo "$0: unknown package '$pkg'" >&2; usage; }
done
mkdir -p "$work"
work=$(cd "$work" && pwd)
cache=$work/cache
export JOBS

POPCORN_CC=$build/bin/popcorn-clang
POPCORN_CXX=$build/bin/popcorn-clang++
INSPECT=$build/bin/popcorn-inspect
: "${BASELINE_CC:=clang-19}"
: "${BASELINE_CXX:=clang++-19}"
: "${QEMU_AARCH64:=qemu-aarch64}"
[ -x "$POPCORN_CC" ] || { echo "$0: no $POPCORN_CC (build popcorn first)" >&2; exit 2; }
command -v "$BASELINE_CC" >/dev/null || { echo "$0: no $BASELINE_CC" >&2; exit 2; }
command -v "$QEMU_AARCH64" >/dev/null || { echo "$0: no $QEMU_AARCH64" >&2; exit 2; }

. "$here/lib.sh"

# The musl baseline's compiler: clang-19 for x86-64 against popcorn's x86-64
# musl (as the program tests' baseline), a gcc-like command for build
# systems.
if [ -n "$musl_baseline" ]; then
	x86=$build/lib/popcorn/x86_64
	resource=$("$BASELINE_CC" -print-resource-dir)
	cat >"$work/musl-cc" <<WRAPPER
#!/bin/sh
flags="--target=x86_64-linux-musl -nostdinc -isystem $x86/include -isystem $resource/include -mlong-double-128 -ffp-contract=off"
for arg; do
	case \$arg in -c|-E|-M|-MM|-S) exec $BASELINE_CC \$flags "\$@";; esac
done
exec $BASELINE_CC \$flags -Qunused-arguments -fuse-ld=lld -static -nostdlib \\
	$x86/lib/crt1.o $x86/lib/crti.o "\$@" -L$x86/lib \\
	-Wl,--start-group -lc $x86/lib/libpopcorn-builtins.a -Wl,--end-group $x86/lib/crtn.o
WRAPPER
	chmod +x "$work/musl-cc"
fi

# build_flavor FLAVOR CC CXX: unpack, build and test one flavor of the package
# in $pkgdir/FLAVOR; results in files there (built, build-secs, counts).
build_flavor() {
	out=$pkgdir/$1
	rm -rf "$out"
	mkdir -p "$out"
	unpack "$tarball" "$out/src"
	CC=$2
	CXX=$3
	CFLAGS=-O2
	CXXFLAGS=-O2
	# popcorn-clang compiles C for aarch64's C ABI on every ISA (the
	# canonical IR is aarch64's), so an autoconf host is aarch64: guessed
	# from this machine, x86_64, gnulib decides the C ABI is i386 (its
	# config.h then defines __i386__ and picks x87 code).  gnulib's check
	# of that ABI (m4) looks for __aarch64__, which popcorn-clang does not
	# define, and would decide on 32-bit arm: it is told the answer.
	# Configure finds that the programs run here, so it does not
	# cross-compile.
	CONFIGURE_HOST=
	[ "$1" != popcorn ] ||
		CONFIGURE_HOST="--host=aarch64-unknown-linux-musl gl_cv_host_cpu_c_abi=arm64"
	export CC CXX CFLAGS CXXFLAGS CONFIGURE_HOST
	start=$(now)
	if (cd "$out/src" && pkg_build) >"$out/build.log" 2>&1; then
		echo yes >"$out/built"
	else
		echo no >"$out/built"
	fi
	elapsed "$start" >"$out/build-secs"
	log "$pkg: $1: built: $(cat "$out/built") ($(cat "$out/build-secs") s)"
	echo "0 ?" >"$out/counts"
	if [ "$(cat "$out/built")" = yes ]; then
		start=$(now)
		(cd "$out/src" && pkg_check) >"$out/check.log" 2>&1 || true
		log "$pkg: $1: tests: $(cat "$out/counts") ($(elapsed "$start") s)"
	fi
}

# check_migrating: the popcorn build's tests again, the programs moving
# between nodes on the schedule $migrate; the result in counts-migrating.
# The aarch64 nodes the programs start are counted in aarch64-starts (a
# node starts when a thread first moves there): tests that pass while
# nothing moved prove nothing.
check_migrating() {
	out=$pkgdir/popcorn
	mv "$out/counts" "$out/counts-home"
	echo "0 ?" >"$out/counts"
	record_starts "$out/node-bin" qemu-aarch64 "$out/aarch64-starts"
	start=$(now)
	(cd "$out/src" && POPCORN_MIGRATE=$migrate PATH=$out/node-bin:$PATH &&
		export POPCORN_MIGRATE PATH && pkg_check) >"$out/check-migrating.log" 2>&1 || true
	mv "$out/counts" "$out/counts-migrating"
	mv "$out/counts-home" "$out/counts"
	log "$pkg: popcorn: tests migrating ($migrate): $(cat "$out/counts-migrating")," \
		"$(starts "$out/aarch64-starts") aarch64 nodes started ($(elapsed "$start") s)"
}

# run_workload DIR RUN: the workload with the programs in DIR, each run
# through RUN (a timeout, and qemu for aarch64); its output in DIR.run.  The programs run
# from one directory, $wl/bin, whichever image they are, so that paths in
# their messages (argv[0]) are the same.
run_workload() {
	rm -rf "$wl/bin"
	cp -R "$1" "$wl/bin"
	set +e
	(cd "$wl/bin" && RUN=$2 && pkg_workload) >"$1.stdout" 2>"$1.stderr" </dev/null
	status=$?
	set -e
	{
		echo "=== stdout"
		cat "$1.stdout"
		echo "=== stderr"
		cat "$1.stderr"
		echo "=== exit status $status"
	} >"$1.run"
}

# workload: the popcorn programs' x86-64 and aarch64 images side by side,
# each run of the workload compared with the other (and with the baseline
# programs', for information).
workload() {
	wl=$pkgdir/workload
	rm -rf "$wl"
	mkdir -p "$wl/x86_64" "$wl/aarch64" "$wl/baseline"
	for p in $pkg_programs; do
		name=$(basename "$p")
		cp "$pkgdir/popcorn/src/$p" "$wl/x86_64/$name"
		"$INSPECT" extract --isa aarch64 "$pkgdir/popcorn/src/$p" "$wl/aarch64/$name" || return 1
		cp "$pkgdir/baseline/src/$p" "$wl/baseline/$name" 2>/dev/null || true
	done
	INPUT=$pkgdir/input
	export INPUT
	run_workload "$wl/x86_64" "timeout 300"
	run_workload "$wl/aarch64" "timeout 300 $QEMU_AARCH64"
	run_workload "$wl/baseline" "timeout 300"
	if ! cmp -s "$wl/x86_64.run" "$wl/aarch64.run"; then
		diff -u "$wl/x86_64.run" "$wl/aarch64.run" >"$wl/diff" || true
		log "$pkg: the aarch64 workload differs from x86-64 (first lines of $wl/diff):"
		head -20 "$wl/diff" >&2
		return 1
	fi
	if ! cmp -s "$wl/x86_64.run" "$wl/baseline.run"; then
		diff -u "$wl/baseline.run" "$wl/x86_64.run" >"$wl/diff-baseline" || true
		log "$pkg: note: the workload's output differs from the baseline programs' ($wl/diff-baseline)"
	fi
	[ -s "$wl/x86_64.stdout" ] || { log "$pkg: the workload printed nothing"; return 1; }
}

# The first error popcorn-clang printed in the build log (file, line and
# reason), for the table's note.
first_error() {
	grep -m1 -E 'popcorn-clang: error|error:' "$1" | cut -c1-160 || true
}

results=$work/results
rm -f "$results"
for pkg in $packages; do
	(
		pkg_programs= pkg_unportable= pkg_musl_differences=
		. "$here/packages/$pkg.sh"
		pkgdir=$work/$pkg
		mkdir -p "$pkgdir"
		log "$pkg: fetching"
		tarball=$(fetch_source "$pkg_source") || {
			printf '%s\tno\t-\t-\t-\t-\tno\t-\tno source\tcannot fetch the source\n' "$pkg" >>"$results"
			exit 0
		}
		unpack "$tarball" "$pkgdir/input"
		build_flavor popcorn "$POPCORN_CC" "$POPCORN_CXX"
		build_flavor baseline "$BASELINE_CC" "$BASELINE_CXX"
		rm -rf "$pkgdir/musl"
		# The musl baseline has no C++ library: its CXX is 'false'.
		[ -z "$musl_baseline" ] || build_flavor musl "$work/musl-cc" false
		built=$(cat "$pkgdir/popcorn/built")
		rm -f "$pkgdir/popcorn/counts-migrating"
		[ -z "$migrate" ] || [ "$built" != yes ] || check_migrating
		note=
		same=no
		if [ "$built" = yes ]; then
			log "$pkg: workload on x86-64 and aarch64"
			if workload; then same=yes; fi
		else
			note=$(first_error "$pkgdir/popcorn/build.log")
			[ -n "$note" ] || note="build failed: $pkgdir/popcorn/build.log"
		fi
		ratio=$(awk -v p="$(cat "$pkgdir/popcorn/build-secs")" -v b="$(cat "$pkgdir/baseline/build-secs")" \
			'BEGIN { if (b > 0) printf "%.1f", p / b; else print "-" }')
		[ -z "$pkg_unportable" ] || note="not portable: $pkg_unportable${note:+; $note}"
		[ -z "$pkg_musl_differences" ] ||
			note="${note:+$note; }$pkg_musl_differences test(s) fail with musl by design (packages/$pkg.sh)"
		tm=- tmig=-
		[ ! -f "$pkgdir/musl/counts" ] || tm=$(tr ' ' / <"$pkgdir/musl/counts")
		[ ! -f "$pkgdir/popcorn/counts-migrating" ] ||
			tmig=$(tr ' ' / <"$pkgdir/popcorn/counts-migrating")
		# The note last: it may be empty, and read merges empty fields
		# between tabs (a tab is white space to IFS).
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$built" \
			"$(tr ' ' / <"$pkgdir/popcorn/counts")" "$(tr ' ' / <"$pkgdir/baseline/counts")" "$tm" \
			"$tmig" "$same" "$ratio" "$(verdict)" "$note" >>"$results"
	)
done

# The table, and the verdict.
row() { # package builds popcorn baseline musl migrating same time note
	printf '%-11s %-7s %-14s %-14s' "$1" "$2" "$3" "$4"
	[ -z "$musl_baseline" ] || printf ' %-14s' "$5"
	[ -z "$migrate" ] || printf ' %-17s' "$6"
	printf ' %-13s %-11s %s\n' "$7" "$8" "$9"
}
{
	row package builds "tests popcorn" "tests baseline" "tests musl" "tests migrating" \
		"aarch64 same" "build time" note
	while IFS='	' read -r pkg built tp tb tm tmig same ratio v note; do
		row "$pkg" "$built" "$tp" "$tb" "$tm" "$tmig" "$same" "${ratio}x" "$note"
	done <"$results"
	[ -z "$migrate" ] || echo "tests migrating: POPCORN_MIGRATE='$migrate'"
} | tee "$work/table.txt"
status=0
while IFS='	' read -r pkg built tp tb tm tmig same ratio v note; do
	[ "$v" = ok ] || { echo "FAIL: $pkg: $v"; status=1; }
done <"$results"
[ $status -eq 0 ] && echo "real programs: all $(wc -l <"$results") packages pass"
exit $status
