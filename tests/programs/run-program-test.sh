#!/bin/sh
# Build one C or C++ program three ways and check that every run agrees
# exactly (stdout, stderr and exit status):
#   1. popcorn-clang (popcorn-clang++ for a .cpp), the x86-64 image, run natively;
#   2. popcorn-clang, the aarch64 image extracted from the same file, run
#      under qemu-aarch64;
#   3. the baseline: plain clang at OPT, static, against the same x86-64 musl;
#      for C++, clang++ at OPT with the build machine's C++ library
#      (libstdc++): what the program prints may not depend on the library;
#   4. 1 and 2 again with the unwinding self-check (POPCORN_CHECK_UNWIND=
#      verbose), which must have walked the stack at least once;
#   5. 1 and 2 again, the stack rewritten in the process at every migration
#      point and at every 7th (POPCORN_SELFTEST=same, into the thread's other
#      stack region; =roundtrip, through the other ISA's layout and back);
#   6. if SOURCE has a line "// POPCORN-MIGRATE-EVERY: N...", 1 again with
#      the thread moving to aarch64 (node 1, another process under
#      qemu-aarch64) and back at every N-th migration point;
#   7. 1 again with the thread moving at random migration points (seed 5,
#      or POPCORN_TEST_SEED from the environment, to try other points) to
#      another x86-64 process (node 2), home, aarch64, home..., unless
#      SOURCE has a line "// POPCORN-MIGRATE: no, REASON"; at each point
#      with probability 0.3, or P with a line "// POPCORN-MIGRATE-RANDOM: P"
#      (a program with millions of points).  The points where the thread
#      can move are about the rewrites of 5 at its first period, times the
#      period: with few, the chance rises so that the run goes round the
#      cycle four times (a cycle with more moves than the points is 1,0
#      instead); with many, the chance falls and every= stretches to about
#      $max_moves moves.  A line "// POPCORN-MIGRATE-NODES: LIST, REASON"
#      sets the cycle of nodes of 6 and 7 instead (e.g. 2,0: x86-64
#      processes only).  Each run of 6 and 7 must move the thread to every
#      node of its cycle.
#
#   run-program-test.sh BIN_DIR SYSROOT CLANG LLD QEMU_AARCH64 SOURCE WORK_DIR [OPT]
#
# OPT is the optimization level of the popcorn build (default -O2).  A line
# "// POPCORN-FLAGS: ..." in SOURCE adds options to the popcorn build (compile and link),
# a line "// POPCORN-LANGUAGE-FLAGS: ..." to both builds (the dialect the
# program is written in: -fno-exceptions, -fno-rtti).
# A line "// POPCORN-PREPROCESS-FIRST" makes the popcorn build go through a
# preprocessed file, as build systems sometimes do: popcorn-clang -E -x c
# of the source on standard input, then -c of the .i, then the link.
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -lt 7 ]; then
	echo "usage: $0 BIN_DIR SYSROOT CLANG LLD QEMU_AARCH64 SOURCE WORK_DIR [OPT]" >&2
	exit 2
fi
bin=$1 sysroot=$2 clang=$3 lld=$4 qemu=$5 src=$6 work=$7 opt=${8:--O2}
case $src in /*) ;; *) src=$(pwd)/$src ;; esac

enter_work_dir "$work"

langflags=$(sed -n 's,^// POPCORN-LANGUAGE-FLAGS: *,,p' "$src")
popcornflags="$langflags $(sed -n 's,^// POPCORN-FLAGS: *,,p' "$src")"
# Seconds one run may take (a line "// POPCORN-RUN-TIMEOUT: N"; default 60).
run_timeout=$(sed -n 's,^// POPCORN-RUN-TIMEOUT: *,,p' "$src")
# How often the self-test rewrites the stack: every migration point and
# every 7th, unless the program asks for fewer (deep recursion under qemu).
periods=$(sed -n 's,^// POPCORN-SELFTEST-EVERY: *,,p' "$src")
: "${periods:=1 7}"

# Builds: each failure is reported with the tool's messages.
case $src in
*.cpp) driver=popcorn-clang++ ;;
*) driver=popcorn-clang ;;
esac
if grep -q '^// POPCORN-PREPROCESS-FIRST' "$src"; then
	popcorn_build() {
		timeout 300 "$bin/popcorn-clang" $popcornflags -E -x c - -o prog.i <"$src" &&
			timeout 300 "$bin/popcorn-clang" "$opt" $popcornflags -c prog.i -o prog.o &&
			timeout 300 "$bin/popcorn-clang" "$opt" $popcornflags prog.o -o prog
	}
else
	popcorn_build() {
		timeout 300 "$bin/$driver" "$opt" "$src" $popcornflags -o prog
	}
fi
if ! popcorn_build 2>build.err; then
	echo "FAIL: $driver $opt $src"
	cat build.err
	exit 1
fi
"$bin/popcorn-inspect" extract --isa aarch64 prog prog.aarch64

# The baseline: clang-19 at the same level, static, against the same x86-64
# musl (what -O2 folds at compile time, -O0 computes with libc: musl's
# binary128 powl is pow's double precision, so math.c's powl differs).  Like
# popcorn-clang it does not contract a*b+c into a fused multiply-add: whether
# that happens depends on the ISA (aarch64 has fmadd, generic x86-64 does not,
# binary128 calls fmal), and a migratable program must compute alike on all.
x86=$sysroot/x86_64
resource=$("$clang" -print-resource-dir)
if [ "$driver" = popcorn-clang++ ]; then
	if ! "$clang" --driver-mode=g++ -ffp-contract=off "$opt" $langflags "$src" -o baseline 2>build.err; then
		echo "FAIL: the baseline build of $src (clang++)"
		cat build.err
		exit 1
	fi
elif ! "$clang" --target=x86_64-linux-musl -nostdinc -isystem "$x86/include" \
	-isystem "$resource/include" -mlong-double-128 -ffp-contract=off "$opt" $langflags -c "$src" -o baseline.o 2>build.err ||
	! "$lld" -static -o baseline "$x86/lib/crt1.o" "$x86/lib/crti.o" baseline.o \
		--start-group "$x86/lib/libc.a" "$x86/lib/libpopcorn-builtins.a" --end-group \
		"$x86/lib/crtn.o" 2>>build.err; then
	echo "FAIL: the baseline build of $src"
	cat build.err
	exit 1
fi


run baseline ./baseline
run x86_64 ./prog
run aarch64 "$qemu" ./prog.aarch64
result=0
rm -f selftest.log
# The unwinding self-check: every migration point is taken and walks the
# whole stack with the migration metadata; any failure aborts the run.
run_check_unwind x86_64-unwind ./prog || result=1
run_check_unwind aarch64-unwind "$qemu" ./prog.aarch64 || result=1
movable= # points where the thread can move (above)
for mode in same roundtrip; do
	min=1 # the most frequent period must rewrite at least once
	for every in $periods; do
		run_selftest "x86_64-$mode-$every" $mode $every $min ./prog || result=1
		[ "$mode" = same ] && [ -z "$movable" ] && movable=$((${rewrites:-0} * every))
		run_selftest "aarch64-$mode-$every" $mode $every $min "$qemu" ./prog.aarch64 || result=1
		min=0
	done
done

# A run moves the thread at most about $max_moves times: at -O0 a program
# has many more points than at -O2 (malloc.c: thousands, each a trip to
# aarch64 and back under qemu), and the period stretches to keep it so.
max_moves=200

# random_schedule POINTS CHANCE CYCLE MOST: the chance of a move at each
# point and the cycle of nodes of the random run, for a run with POINTS
# points where the thread can move.  Each node of the cycle must be
# reached, whatever the seed: the chance rises until the run is expected to
# go round the cycle four times (but, unless MOST is 0, falls until it is
# expected to move at most MOST times), and with fewer points than the
# moves it takes to reach the cycle's last node, the cycle is aarch64 and
# back.
random_schedule() {
	echo "$1 $2 $3 $4" | awk '{
		points = $1; chance = $2; n = split($3, cycle, ","); most = $4
		last = 0
		for (i = 1; i <= n; i++) if (cycle[i] != 0) last = i
		if (points < last) { $3 = "1,0"; n = 2 }
		if (most && chance * points > most) chance = most / points
		if (chance * points < 4 * n) chance = 4 * n / points
		if (chance > 1) chance = 1
		printf "random=%.9f;nodes=%s\n", chance, $3
	}'
}

migrate_periods=$(sed -n 's,^// POPCORN-MIGRATE-EVERY: *,,p' "$src")
migrate_nodes=$(sed -n 's|^// POPCORN-MIGRATE-NODES: *\([0-9,]*[0-9]\).*|\1|p' "$src")
migrated=
# Every migrating run moves the thread to each node of its cycle at least
# once (runs.sh): a schedule that never fires tests nothing.
for every in $migrate_periods; do
	period=$(echo "${movable:-0} $every $max_moves" |
		awk '{ p = int(($1 + $3 - 1) / $3); print (p > $2 ? p : $2) }')
	run_migrate "x86_64-migrate-$every" "every=$period;nodes=${migrate_nodes:-1,0}" 1 ./prog || result=1
	[ "$period" = "$every" ] || echo "x86_64-migrate-$every: every=$period over $movable points" >>selftest.log
	migrated="$migrated x86_64-migrate-$every"
done
if ! grep -q '^// POPCORN-MIGRATE: no' "$src"; then
	chance=$(sed -n 's,^// POPCORN-MIGRATE-RANDOM: *,,p' "$src")
	if [ "${movable:-0}" -eq 0 ]; then
		echo "FAIL: the thread can move at no point of this run (say why in a line \"// POPCORN-MIGRATE: no, REASON\")"
		result=1
	else
		# A chance the source gives is its author's: not lowered.
		most=$max_moves
		[ -z "$chance" ] || most=0
		schedule=$(random_schedule "$movable" "${chance:-0.3}" "${migrate_nodes:-2,0,1,0}" $most)
		run_migrate x86_64-migrate-random "$schedule;seed=${POPCORN_TEST_SEED:-5}" 1 ./prog || result=1
		echo "x86_64-migrate-random: $schedule over $movable points" >>selftest.log
		migrated="$migrated x86_64-migrate-random"
	fi
fi
same_as_baseline "popcorn $opt" || result=1
if [ -n "$migrated" ]; then
	same_as_baseline "popcorn $opt migrating between nodes" $migrated || result=1
fi
same_as_baseline "popcorn $opt with POPCORN_CHECK_UNWIND=1" x86_64-unwind aarch64-unwind || result=1
for mode in same roundtrip; do
	for every in $periods; do
		same_as_baseline "popcorn $opt with POPCORN_SELFTEST=$mode every $every" \
			"x86_64-$mode-$every" "aarch64-$mode-$every" || result=1
	done
done
if [ ! -s baseline.stdout ] && [ ! -s baseline.stderr ]; then
	echo "FAIL: the program printed nothing"
	result=1
fi
[ $result -eq 0 ] && echo "ok: $(basename "$src") $opt: x86_64, aarch64 (also with the unwinding self-check and the stack rewritten in the process) and the baseline agree ($(wc -l <baseline.stdout) lines, $(tail -1 baseline.run | sed 's/=== //'))" && cat selftest.log
exit $result
