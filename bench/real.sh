#!/bin/sh
# What Popcorn costs on real programs: every package of tests/real built
# with popcorn-clang and with stock clang-19 -O2 -static against Debian's
# unmodified musl, its workload run under callgrind, and the instructions,
# the stripped size of its main program and a hello world's start-up time
# compared.
#
#   bench/real.sh BUILD_DIR [--only PKG,PKG] [--jobs N] [--workdir DIR]
#                 [--packages DIR] [--starts N]
#
# For each package (tests/real/packages/PKG.sh: pkg_build, pkg_workload,
# pkg_programs; sources from 'apt-get source', kept in WORKDIR/cache):
#   - three builds through the package's own build system: popcorn-clang
#     -O2, stock x86-64 and stock aarch64 (clang-19 -O2 -static against
#     Debian's musl-dev and musl-dev:arm64, libgcc: bench/stock.sh);
#   - the workload run natively with the popcorn and the stock x86-64
#     programs: the outputs must be equal (the same work is measured);
#   - the workload again under valgrind --tool=callgrind, every process of
#     the package's programs counted (--trace-children=yes; the system's
#     programs the workload or a package program starts, sort or sh, are not
#     traced: they are the same for both builds), the counts summed;
#   - the main program (the first of pkg_programs) stripped: popcorn-clang -s
#     against the two stock executables stripped (llvm-strip --strip-all).
# Then a hello world's start-up: the median wall time of many runs, stock,
# popcorn, and popcorn with POPCORN_CONTROL=off, interleaved.
#
# The table goes to stdout and WORKDIR/table.txt (default WORKDIR:
# BUILD_DIR/bench/real), the functions that cost most instructions over
# stock, per package, worst package first, to WORKDIR/offenders.txt.  The
# exit status is non-zero if a package fails to build, its workload's output
# differs between the builds, or a callgrind run fails; its row says which.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
packages_dir=$top/tests/real/packages

usage() {
	echo "usage: $0 BUILD_DIR [--only PKG,PKG] [--jobs N] [--workdir DIR] [--packages DIR] [--starts N]" >&2
	exit 2
}
[ $# -ge 1 ] || usage
case $1 in -*) usage ;; esac
build=$(cd "$1" && pwd) || { echo "real.sh: no build directory '$1'" >&2; exit 2; }
shift
only= work=$build/bench/real JOBS=2 starts=300
while [ $# -gt 0 ]; do
	case $1 in
	--only) [ $# -ge 2 ] || usage; only=$(echo "$2" | tr ',' ' '); shift 2 ;;
	--jobs) [ $# -ge 2 ] || usage; JOBS=$2; shift 2 ;;
	--workdir) [ $# -ge 2 ] || usage; work=$2; shift 2 ;;
	--packages) [ $# -ge 2 ] || usage; packages_dir=$(cd "$2" && pwd) || usage; shift 2 ;;
	--starts) [ $# -ge 2 ] || usage; starts=$2; shift 2 ;;
	*) echo "real.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $JOBS$starts in *[!0-9]*) echo "real.sh: --jobs and --starts need positive integers" >&2; exit 2 ;; esac
export JOBS

: "${CLANG:=clang-19}" "${LLD:=ld.lld-19}" "${STRIP:=llvm-strip-19}" "${VALGRIND:=valgrind}"
: "${CALLGRIND_ANNOTATE:=callgrind_annotate}" "${NM:=llvm-nm-19}"
export CLANG LLD
POPCORN_CC=$build/bin/popcorn-clang
[ -x "$POPCORN_CC" ] || { echo "real.sh: no $POPCORN_CC (build popcorn first)" >&2; exit 2; }
for tool in "$CLANG" "$LLD" "$STRIP" "$NM" "$VALGRIND" "$CALLGRIND_ANNOTATE"; do
	command -v "$tool" >/dev/null ||
		{ echo "real.sh: '$tool' not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
done
if [ -z "$only" ]; then
	only=$(cd "$packages_dir" && ls -- *.sh | sed 's/\.sh$//')
fi
for pkg in $only; do
	[ -f "$packages_dir/$pkg.sh" ] || { echo "real.sh: unknown package '$pkg' (no $packages_dir/$pkg.sh)" >&2; exit 2; }
done
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)
cache=$work/cache
. "$top/tests/real/lib.sh"

# The stock compilers: clang-19 for ISA against Debian's musl and libgcc, a
# gcc-like command for build systems (paths as bench/stock.sh finds them).
# The empty --sysroot keeps the driver from searching the system's glibc
# library directories: configure would find glibc's libz.a there, link
# with it, and enable code whose headers musl does not have.
stock_paths() { # isa
	bash -c '. "$1/stock.sh" && stock_init "$2" >&2 &&
		eval "echo \"\$STOCK_MUSL_INCLUDE_$2 \$STOCK_MUSL_LIB_$2 \$STOCK_LIBGCC_$2\""' \
		sh "$here" "$1"
}
make_stock_cc() { # isa
	set -- "$1" $(stock_paths "$1") || return 1
	[ $# -eq 4 ] || return 1
	resource=$("$CLANG" -print-resource-dir)
	mkdir -p "$work/empty-sysroot" || return 1
	cat >"$work/stock-$1-cc" <<-WRAPPER
	#!/bin/sh
	# clang-19 -O2 -static for $1 against Debian's musl, as a user without Popcorn builds.
	flags="--target=$1-linux-musl --sysroot=$work/empty-sysroot -nostdinc -isystem $2 -isystem $resource/include"
	for arg; do
		case \$arg in -c|-E|-M|-MM|-S) exec $CLANG \$flags "\$@";; esac
	done
	exec $CLANG \$flags -Qunused-arguments -fuse-ld=lld -static -nostdlib \\
		$3/crt1.o $3/crti.o "\$@" -L$3 -Wl,--start-group -lc $4 -Wl,--end-group $3/crtn.o
	WRAPPER
	chmod +x "$work/stock-$1-cc"
}

# popcorn-clang, and when the build links the package's main program
# ($POPCORN_STRIPPED_PROGRAM) a second link with -s beside it,
# OUT.popcorn-s: the stripped multi-ISA file is popcorn-clang -s's (strip
# tools drop the aarch64 image).  Only that program: a build that compiles
# and links in one command compiles twice.
make_popcorn_cc() {
	cat >"$work/popcorn-cc" <<-WRAPPER
	#!/bin/sh
	for arg; do
		case \$arg in -c|-E|-M|-MM|-S) exec $POPCORN_CC "\$@";; esac
	done
	$POPCORN_CC "\$@" || exit
	out= next= n=\$#
	for arg; do
		[ -z "\$next" ] || out=\$arg
		next=; [ "\$arg" != -o ] || next=1
	done
	[ "\${out##*/}" = "\$POPCORN_STRIPPED_PROGRAM" ] || exit 0
	for arg; do
		[ -z "\$next" ] || arg=\$out.popcorn-s
		next=; [ "\$arg" != -o ] || next=1
		set -- "\$@" "\$arg"
	done
	shift \$n
	exec $POPCORN_CC "\$@" -s
	WRAPPER
	chmod +x "$work/popcorn-cc"
}

make_popcorn_cc
make_stock_cc x86_64 || { echo "real.sh: the stock baseline needs Debian's musl-dev" >&2; exit 2; }
make_stock_cc aarch64 || { echo "real.sh: the stock aarch64 build needs musl-dev:arm64 (scripts/install-deps.sh)" >&2; exit 2; }

# build_flavor FLAVOR CC HOST: unpack and build the package in
# $pkgdir/FLAVOR/src (HOST: configure's --host, or empty); "yes" or "no" in
# $pkgdir/FLAVOR/built.
build_flavor() {
	out=$pkgdir/$1
	rm -rf "$out"
	mkdir -p "$out"
	unpack "$tarball" "$out/src"
	CC=$2 CFLAGS=-O2 CONFIGURE_HOST=$3
	export CC CFLAGS CONFIGURE_HOST
	start=$(now)
	if (cd "$out/src" && pkg_build) >"$out/build.log" 2>&1; then built=yes; else built=no; fi
	for p in $pkg_programs; do [ -f "$out/src/$p" ] || built=no; done
	echo "$built" >"$out/built"
	log "$pkg: $1: built: $built ($(elapsed "$start") s)"
	[ "$built" = yes ]
}

# run_workload FLAVOR NAME RUN: the workload with FLAVOR's programs, each
# run through RUN; its output, error output and exit status in
# $pkgdir/NAME.run.  The programs always run from $pkgdir/bin, so that
# paths in their messages (argv[0]) are the same for every build.
run_workload() {
	rm -rf "$pkgdir/bin"
	mkdir -p "$pkgdir/bin"
	for p in $pkg_programs; do cp "$pkgdir/$1/src/$p" "$pkgdir/bin/" || return 1; done
	(cd "$pkgdir/bin" && INPUT=$pkgdir/input RUN=$3 && export INPUT && pkg_workload) \
		>"$pkgdir/$2.stdout" 2>"$pkgdir/$2.stderr" </dev/null
	code=$?
	{
		echo "=== stdout"
		cat "$pkgdir/$2.stdout"
		echo "=== stderr"
		cat "$pkgdir/$2.stderr"
		echo "=== exit status $code"
	} >"$pkgdir/$2.run"
}

# callgrind FLAVOR: the workload under callgrind, one file per process in
# $pkgdir/FLAVOR.cg/; prints the instructions of them all, or FAIL.
callgrind() {
	cg=$pkgdir/$1.cg
	rm -rf "$cg"
	mkdir -p "$cg"
	run_workload "$1" "$1.callgrind" "$VALGRIND --tool=callgrind -q --trace-children=yes
		--trace-children-skip=/bin/*,/sbin/*,/usr/* --callgrind-out-file=$cg/%p.out"
	ls "$cg"/*.out >/dev/null 2>&1 || { echo FAIL; return; }
	awk '/^summary:/ { n++; ir += $2 } END { if (n) printf "%.0f\n", ir; else print "FAIL" }' "$cg"/*.out
}

# symbols FLAVOR: "S PROGRAM ADDRESS TYPE NAME" for every function symbol of
# FLAVOR's programs (PROGRAM: the file name, as callgrind's object).
symbols() {
	for p in $pkg_programs; do
		"$NM" -n --defined-only "$pkgdir/$1/src/$p" 2>/dev/null |
			awk -v prog="${p##*/}" '$2 ~ /^[TtWw]$/ { print "S", prog, $1, $2, $3 }'
	done
}

# functions FLAVOR: instructions per function name (self cost), summed over
# the processes, as "NAME IR" lines in $pkgdir/FLAVOR.functions.
functions() {
	{
		symbols "$1"
		for f in "$pkgdir/$1.cg"/*.out; do
			"$CALLGRIND_ANNOTATE" --inclusive=no --threshold=100 "$f" 2>/dev/null
		done
	} | awk '
		$1 == "S" {
			n = ++nsym[$2]; addr[$2, n] = $3; global[$2, n] = $4 ~ /[TW]/; sym[$2, n] = $5
			next
		}
		# "1,234 (12.34%)  file.c:name [/path/prog]": the name without
		# the file (it differs between the builds), the object and the
		# level of recursion callgrind counts apart.
		$1 ~ /^[0-9,]+$/ && $2 ~ /^\(/ && !/PROGRAM TOTALS/ {
			ir = $1; gsub(/,/, "", ir)
			line = $0; sub(/^ *[0-9,]+ +\([^)]*\) +/, "", line)
			prog = line; sub(/^.*\[/, "", prog); sub(/\]$/, "", prog); sub(/^.*\//, "", prog)
			sub(/ \[[^]]*\]$/, "", line)
			sub(/^[^:]*:/, "", line)
			sub(/\x27[0-9]+$/, "", line) # a level of recursion: a quote, the depth
			if (line ~ /^0x[0-9a-f]+$/) line = enclosing(prog, substr(line, 3))
			sum[line] += ir
		}
		# The function symbol at or before ADDRESS (16 hex digits, as nm
		# prints them: compared as strings), a global one first: callgrind
		# names no function whose symbol has no size (musl assembly
		# routines as memcpy).
		function enclosing(prog, address,   i, best) {
			for (i = 1; i <= nsym[prog] && addr[prog, i] <= address; i++)
				if (!best || addr[prog, i] != addr[prog, best] || (global[prog, i] && !global[prog, best]))
					best = i
			return best ? sym[prog, best] : "0x" address
		}
		END { for (n in sum) printf "%s\t%.0f\n", n, sum[n] }' >"$pkgdir/$1.functions"
}

# offenders: the ten functions whose instructions grew most over stock.
offenders() {
	awk -F'\t' 'FNR == NR { stock[$1] = $2; next } { pop[$1] = $2 }
		END {
			for (n in stock) if (!(n in pop)) pop[n] = 0
			for (n in pop) printf "%14.0f %14.0f %14.0f  %s\n", pop[n] - stock[n], stock[n], pop[n], n
		}' "$pkgdir/stock-x86_64.functions" "$pkgdir/popcorn.functions" | sort -rn | head -10
}

stripped_size() { # file
	"$STRIP" --strip-all -o "$1.s" "$1" && wc -c <"$1.s" | tr -d ' '
}

# build_all: the three builds of $pkg; the flavors that failed in $failed.
build_all() {
	failed=
	# As tests/real/run.sh builds it: gnulib's check of the C ABI looks for
	# __aarch64__, which popcorn-clang does not define, and is told.
	build_flavor popcorn "$work/popcorn-cc" \
		"--host=aarch64-unknown-linux-musl gl_cv_host_cpu_c_abi=arm64" || failed="$failed popcorn"
	build_flavor stock-x86_64 "$work/stock-x86_64-cc" "" || failed="$failed stock-x86_64"
	# Cross-compiled: configure cannot run the aarch64 programs it makes.
	build_flavor stock-aarch64 "$work/stock-aarch64-cc" --host=aarch64-linux-musl || failed="$failed stock-aarch64"
	[ -z "$failed" ]
}

# same_output: whether the workload gives the same output, error output and
# exit status with the popcorn programs as with the stock ones (the
# difference in $pkgdir/workload.diff if not).
same_output() {
	log "$pkg: workload"
	run_workload popcorn popcorn "" && run_workload stock-x86_64 stock "" || return 1
	cmp -s "$pkgdir/stock.run" "$pkgdir/popcorn.run" && return 0
	diff -u "$pkgdir/stock.run" "$pkgdir/popcorn.run" >"$pkgdir/workload.diff"
	return 1
}

# count_instructions: $ir_stock and $ir_pop, each a number or FAIL, and
# the offenders of $pkg.
count_instructions() {
	log "$pkg: workload under callgrind"
	ir_stock=$(callgrind stock-x86_64)
	ir_pop=$(callgrind popcorn)
	[ "$ir_stock" != FAIL ] && [ "$ir_pop" != FAIL ] || return 1
	functions stock-x86_64
	functions popcorn
	offenders >"$pkgdir/offenders"
}

# stripped_sizes: $size_stock (both stock executables of the main program)
# and $size_pop (popcorn-clang -s's file), in bytes.
stripped_sizes() {
	size_x86=$(stripped_size "$pkgdir/stock-x86_64/src/$main_path")
	size_a64=$(stripped_size "$pkgdir/stock-aarch64/src/$main_path")
	size_pop=$(wc -c <"$pkgdir/popcorn/src/$main_path.popcorn-s" 2>/dev/null | tr -d ' ')
	size_stock=-
	[ -n "$size_x86" ] && [ -n "$size_a64" ] && [ -n "$size_pop" ] || { size_pop=-; return 1; }
	size_stock=$((size_x86 + size_a64))
}

# measure_package: builds, workload, counts and sizes of $pkg; one line of
# results in $results: package status stock-Ir popcorn-Ir stock-bytes
# popcorn-bytes note (tab-separated).  Returns non-zero unless all is ok.
measure_package() {
	pkg_programs= pkg_unportable=
	. "$packages_dir/$pkg.sh"
	pkgdir=$work/$pkg
	mkdir -p "$pkgdir"
	row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$pkg" "$@" >>"$results"; }
	[ -z "$pkg_unportable" ] || { row skipped - - - - "not portable: $pkg_unportable"; return 0; }
	log "$pkg: fetching"
	tarball=$(fetch_source "$pkg_source") || { row NO-SOURCE - - - - "apt-get source $pkg_source failed"; return 1; }
	unpack "$tarball" "$pkgdir/input"
	main_path=${pkg_programs%% *}
	main=${main_path##*/}
	POPCORN_STRIPPED_PROGRAM=$main
	export POPCORN_STRIPPED_PROGRAM
	build_all || { row BUILD-FAIL - - - - "does not build:$failed (see $pkgdir/FLAVOR/build.log)"; return 1; }

	# Every measure is taken whatever the others gave; the row names the
	# first that failed.
	status=ok note=
	same_output || status=DIFF note="the workload's output differs ($pkgdir/workload.diff)"
	count_instructions || { [ "$status" != ok ] || status=CG-FAIL note="no callgrind count ($pkgdir/*.callgrind.stderr)"; }
	stripped_sizes || { [ "$status" != ok ] || status=SIZE-FAIL note="no stripped $main"; }
	row "$status" "$ir_stock" "$ir_pop" "$size_stock" "$size_pop" "$main${note:+; $note}"
	[ "$status" = ok ]
}

# startup: a hello world's median wall time, stock and popcorn with and
# without the control socket, RUNS interleaved rounds; "LABEL MICROSECONDS"
# lines in $work/startup.
startup() {
	s=$work/startup.d
	rm -rf "$s"
	mkdir -p "$s"
	printf '#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }\n' >"$s/hello.c"
	cat >"$s/starts.c" <<-'EOF'
	/* starts RUNS (LABEL ENV PROGRAM)...: runs every PROGRAM once per round,
	 * in order, RUNS rounds after one not counted, with ENV ("-": none) added
	 * to the environment; prints each LABEL and its median wall time in us. */
	#include <spawn.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <sys/wait.h>
	#include <time.h>
	extern char **environ;
	static double now_us(void) {
	  struct timespec t;
	  clock_gettime(CLOCK_MONOTONIC, &t);
	  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
	}
	static int by_value(const void *a, const void *b) {
	  double x = *(const double *)a, y = *(const double *)b;
	  return (x > y) - (x < y);
	}
	static double run_once(char *prog, char *env, posix_spawn_file_actions_t *quiet) {
	  static char *envp[4096];
	  int n = 0, status;
	  pid_t pid;
	  for (char **e = environ; *e && n < 4094; e++) envp[n++] = *e;
	  if (strcmp(env, "-") != 0) envp[n++] = env;
	  envp[n] = NULL;
	  char *argv[] = {prog, NULL};
	  double t0 = now_us();
	  if (posix_spawn(&pid, prog, quiet, NULL, argv, envp) != 0 || waitpid(pid, &status, 0) != pid ||
	      !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
	    fprintf(stderr, "starts: %s did not run and exit 0\n", prog);
	    exit(1);
	  }
	  return now_us() - t0;
	}
	int main(int argc, char **argv) {
	  int runs = argc > 1 ? atoi(argv[1]) : 0, progs = (argc - 2) / 3;
	  if (runs < 1 || argc < 5 || (argc - 2) % 3) {
	    fprintf(stderr, "usage: starts RUNS (LABEL ENV PROGRAM)...\n");
	    return 2;
	  }
	  posix_spawn_file_actions_t quiet;
	  posix_spawn_file_actions_init(&quiet);
	  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", 1, 0);
	  double *t = calloc((size_t)runs * progs, sizeof *t);
	  for (int r = -1; r < runs; r++)
	    for (int p = 0; p < progs; p++) {
	      double us = run_once(argv[4 + 3 * p], argv[3 + 3 * p], &quiet);
	      if (r >= 0) t[p * runs + r] = us;
	    }
	  for (int p = 0; p < progs; p++) {
	    qsort(t + p * runs, runs, sizeof *t, by_value);
	    printf("%s %.0f\n", argv[2 + 3 * p], t[p * runs + runs / 2]);
	  }
	  return 0;
	}
	EOF
	"$CLANG" -O2 -o "$s/starts" "$s/starts.c" &&
		"$work/stock-x86_64-cc" -O2 -o "$s/hello.stock" "$s/hello.c" &&
		"$POPCORN_CC" -O2 -o "$s/hello.popcorn" "$s/hello.c" &&
		"$s/starts" "$starts" stock - "$s/hello.stock" popcorn - "$s/hello.popcorn" \
			popcorn-control-off POPCORN_CONTROL=off "$s/hello.popcorn" >"$work/startup"
}

results=$work/results
: >"$results"
status=0
for pkg in $only; do
	(measure_package) || status=1
	grep -q "^$pkg	" "$results" || { printf '%s\tFAILED\t-\t-\t-\t-\tsee the log above\n' "$pkg" >>"$results"; status=1; }
done
log "start-up: hello world, $starts runs each"
startup || { log "start-up: the hello world did not build or run"; status=1; : >"$work/startup"; }

rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
	echo "Popcorn on real programs: popcorn-clang -O2 vs clang-19 -O2 -static, Debian's musl (source $rev, $(date -u '+%Y-%m-%d'))"
	echo
	awk -F'\t' '
		function ratio(a, b) { return (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && a > 0) ? b / a : "" }
		# Only rows measured whole count in the geometric mean.
		function cell(x, k) { if (x == "") return "-"; if ($2 == "ok") { lg[k] += log(x); n[k]++ }; return sprintf("%.3f", x) }
		function gm(k) { return n[k] ? sprintf("%.3f", exp(lg[k] / n[k])) : "-" }
		function mir(x) { return x ~ /^[0-9]+$/ ? sprintf("%.1f", x / 1e6) : "-" }
		BEGIN {
			f = "%-10s %-10s | %10s %10s %7s | %9s %9s %7s | %s\n"
			head = sprintf(f, "package", "status", "stock MIr", "pop MIr", "Ir x", "stock B", "pop B", "size x", "main program; note")
			printf "%s", head
			rule = head; gsub(/./, "-", rule); sub(/-$/, "", rule)
			print rule
		}
		{ printf f, $1, $2, mir($3), mir($4), cell(ratio($3, $4), "ir"), $5, $6, cell(ratio($5, $6), "size"), $7 }
		END { print rule; printf f, "geomean", "", "", "", gm("ir"), "", "", gm("size"), "" }' "$results"
	echo
	echo "Ir: instructions of every process of the package's programs in its workload (callgrind), in millions;"
	echo "stock B: bytes of the main program, stripped, for x86-64 plus for aarch64; pop B: popcorn-clang -s."
	echo "x = popcorn / stock (1.000 = parity); the geometric mean is over the rows that are ok."
	if [ -s "$work/startup" ]; then
		echo
		awk -v runs="$starts" '{ t[$1] = $2 }
			END {
				printf "Start-up, hello world, median of %d runs: stock %d us, popcorn %d us (%.3fx),", runs, t["stock"], t["popcorn"], t["popcorn"] / t["stock"]
				printf " popcorn with POPCORN_CONTROL=off %d us (%.3fx)\n", t["popcorn-control-off"], t["popcorn-control-off"] / t["stock"]
			}' "$work/startup"
	fi
} | tee "$work/table.txt"

# The offenders, worst package (by Ir x) first.
awk -F'\t' '$3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ && $3 > 0 { print $4 / $3, $1 }' "$results" | sort -rn |
	while read -r ratio pkg; do
		echo "== $pkg: Ir x $ratio; the functions with the most instructions over stock (self cost)"
		printf '%14s %14s %14s  %s\n' "pop - stock" stock popcorn function
		cat "$work/$pkg/offenders"
		echo
	done >"$work/offenders.txt"
echo "(table: $work/table.txt; functions over stock: $work/offenders.txt)" >&2
exit $status
