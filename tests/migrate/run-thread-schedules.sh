#!/bin/sh
# Each thread follows POPCORN_MIGRATE on its own course: tests/migrate/
# thread-schedules.c's main thread takes PRELUDE steps, then two workers
# run the same walk one after the other, then main walks too; each prints
# the node it was on after every step (its trail).
#
# - every=N counts each thread's points: a worker's trail does not depend
#   on how many points main took before it (PRELUDE 100 or 333, which
#   leave different remainders of N), and the two workers' are the same.
# - random= gives each thread its own stream, from the seed and its place
#   in the order of creation: a worker's trail does not depend on PRELUDE,
#   the two workers' differ, and a second run repeats the first.
# - threads=main: the workers stay home, main moves, with every= and with
#   period= (whose timer's signal any thread may take).
# - POPCORN_TRACE has a track of its own for each thread, and a thread's
#   slices end with it.
# Every run prints what a run that stays home prints.
#
#   run-thread-schedules.sh BUILD_DIR SOURCE WORK_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$2 work=$3
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
enter_work_dir "$work"

if ! timeout 300 "$build/bin/popcorn-clang" -O2 "$src" -o prog 2>build.err; then
	echo "FAIL: popcorn-clang -O2 $src"
	cat build.err
	exit 1
fi


# trail NAME WHO: the trail thread WHO left in run NAME.
trail() { sed -n "s/^trail $2 //p" "$1.stderr"; }
moved() { trail "$1" "$2" | grep -q '[1-9]'; }
# same RUN1 RUN2 WHO: thread WHO left the same trail in both runs.
same() { [ "$(trail "$1" "$3")" = "$(trail "$2" "$3")" ]; }

# schedule NAME PRELUDE SCHEDULE: one run, whose stdout must be home's.
schedule() {
	POPCORN_MIGRATE=$3 run "$1" ./prog "$2"
	if [ "$status" -ne 0 ] || ! cmp -s "$1.stdout" "home$2.stdout"; then
		fail "POPCORN_MIGRATE='$3' ./prog $2: status $status, or stdout differs from home's:"
		cat "$1.stdout" "$1.stderr"
		diff "home$2.stdout" "$1.stdout" || true
	fi
}

for prelude in 100 333 3000000; do
	POPCORN_NODES=0:x86_64:native run "home$prelude" ./prog "$prelude"
	[ "$status" -eq 0 ] || fail "./prog $prelude at home: status $status"
done

# every=7: 100 and 333 steps leave remainders 2 and 4.
schedule every100 100 'every=7;nodes=1,0'
schedule every333 333 'every=7;nodes=1,0'
moved every100 worker1 || fail "every=7: worker1 never moved: $(trail every100 worker1)"
same every100 every333 worker1 ||
	fail "every=7: worker1's trail depends on main's points before it"
[ "$(trail every100 worker1)" = "$(trail every100 worker2)" ] ||
	fail "every=7: the two workers, walking alike, moved at different steps"
# Main's course goes on after the workers' as if they had taken no point:
# as with threads=main, where they take none.
schedule everymain 100 'every=7;threads=main;nodes=1,0'
same every100 everymain main ||
	fail "every=7: the workers' points count in main's course"

schedule random100 100 'random=0.03;seed=5;nodes=1,0'
schedule random333 333 'random=0.03;seed=5;nodes=1,0'
schedule again333 333 'random=0.03;seed=5;nodes=1,0'
for who in worker1 worker2 main; do
	moved random100 $who || fail "random=0.03: $who never moved: $(trail random100 $who)"
done
for who in worker1 worker2; do
	same random100 random333 $who ||
		fail "random=0.03: $who's trail depends on main's draws before it"
done
[ "$(trail random100 worker1)" != "$(trail random100 worker2)" ] ||
	fail "random=0.03: the two workers drew the same stream"
[ "$(grep '^trail' random333.stderr)" = "$(grep '^trail' again333.stderr)" ] ||
	fail "random=0.03;seed=5: a second run of ./prog 333 took other moves"
schedule randommain 100 'random=0.03;seed=5;threads=main;nodes=1,0'
same random100 randommain main ||
	fail "random=0.03: the workers' draws come from main's stream"
schedule seed6 100 'random=0.03;seed=6;nodes=1,0'
for who in worker1 worker2 main; do
	! same random100 seed6 $who ||
		fail "random=0.03: $who's stream is the same for seeds 5 and 6"
done

schedule mainonly 100 'every=7;threads=main;nodes=1,0'
moved mainonly main || fail "threads=main: main never moved"
for who in worker1 worker2; do
	! moved mainonly $who || fail "threads=main: $who moved: $(trail mainonly $who)"
done

# period= comes by a timer's signal, which any thread may take first:
# with threads=main the others leave it to the main thread, which moves
# (its ticks wait for its next point), and they never do.
POPCORN_LOG=stats schedule periodmain 3000000 'period=1ms;threads=main;nodes=1'
grep -q '^popcorn: migrations: [1-9]' periodmain.stderr ||
	fail "period=1ms;threads=main: main never moved: $(grep '^popcorn: migrations' periodmain.stderr)"
for who in worker1 worker2; do
	! moved periodmain $who || fail "period=1ms;threads=main: $who moved: $(trail periodmain $who)"
done

# The trace has a track of its own for each thread: every= moves all three.
POPCORN_TRACE=threads.json schedule traced 100 'every=7;nodes=1,0'
python3 "$here/check-thread-tracks.py" threads.json traced.stderr ||
	fail "POPCORN_TRACE: no track of its own for each thread"

[ "$failed" -eq 0 ] && echo "PASS: each thread's own course through every=, random= and threads=main"
exit "$failed"
