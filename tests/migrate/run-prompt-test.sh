#!/bin/sh
# Prompt with loop points: tests/migrate/prompt.c, built with
# -fpopcorn-loop-period=auto, answers a request to move while a loop that
# reaches no migration point of its own runs (one calling only a leaf, a
# counted one without calls, one whose exit depends on the data).  Built
# with no flag, it answers in the loop that calls only a leaf (the default
# gives only such loops a point); in a loop that calls nothing it takes no
# request and says so at exit.  For each: a period= schedule moves the
# thread several times during the loop, and popcorn-ctl's request is taken
# while the loop still runs; each run prints what a run that stays home
# prints.  Without loop points both wait for the loop's end: no move at all.
#
#   run-prompt-test.sh BUILD_DIR SOURCE WORK_DIR
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$2 work=$3
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
enter_work_dir "$work"
ctl=$build/bin/popcorn-ctl
export XDG_RUNTIME_DIR="$work/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# The expected output comes from a build without loop points (plain), so
# that a loop the points broke cannot agree with itself.
if ! timeout 300 "$build/bin/popcorn-clang" -O2 -fpopcorn-loop-period=auto "$src" -o auto 2>build.err ||
	! timeout 300 "$build/bin/popcorn-clang" -O2 "$src" -o default 2>>build.err ||
	! timeout 300 "$build/bin/popcorn-clang" -O2 -fpopcorn-loop-period=0 "$src" -o plain 2>>build.err; then
	echo "FAIL: popcorn-clang -O2 [-fpopcorn-loop-period=auto|0] $src"
	cat build.err
	exit 1
fi

failed=0
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT

# Millions of iterations: about half a second each natively, so that a
# schedule of 20 ms away and 20 ms home has a dozen cycles in the loop.
# (run() sets $name: the loop's kind is $kind.)
for phase in auto:leaf:400 auto:counted:400 auto:uncounted:200 default:leaf:400; do
	IFS=: read -r prog kind size <<-EOF
	$phase
	EOF
	prog=./$prog
	run baseline env POPCORN_NODES=0:x86_64:native ./plain "$kind" "$size"
	run_timeout=120 run period env POPCORN_LOG=stats 'POPCORN_MIGRATE=period=20ms;nodes=2' \
		$prog "$kind" "$size"
	take_report period "popcorn: migrations: "
	moves=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	if ! same_as_baseline "$prog $kind with period=20ms" period; then
		failed=1
	elif at_least "$prog $kind with period=20ms" "$moves" 3 "fewer than 3 migrations during the loop"; then
		echo "ok: $prog $kind: period=20ms moved the thread $moves times during the loop"
	else
		failed=1
	fi

	# popcorn-ctl, half a second into a loop of about a second and a half
	# (prompt.c has no migration point after its loop: reaching node 2
	# means the loop's point answered).
	run baseline env POPCORN_NODES=0:x86_64:native ./plain "$kind" $((size * 4))
	$prog "$kind" $((size * 4)) >steered.stdout 2>steered.stderr &
	pid=$!
	sleep 0.5
	timeout 30 "$ctl" migrate "$pid" 2 >ctl.out 2>&1 || echo "popcorn-ctl migrate: $(cat ctl.out)"
	node=
	while kill -0 "$pid" 2>/dev/null; do
		node=$(timeout 30 "$ctl" ps 2>/dev/null | awk -v pid="$pid" '$1 == pid { print $3 }')
		[ "$node" != 2 ] || break
		sleep 0.1
	done
	if [ "$node" = 2 ]; then
		echo "ok: $prog $kind: popcorn-ctl moved the thread to node 2 while the loop ran"
	else
		echo "FAIL: $prog $kind: the thread did not reach node 2 while the loop ran (ps: '${node:-ended}')"
		failed=1
	fi
	status=0
	wait "$pid" || status=$?
	pid=
	if [ $status -ne 0 ]; then
		echo "FAIL: $prog $kind: the steered run exits with $status: $(cat steered.stderr)"
		failed=1
	elif ! cmp -s baseline.stdout steered.stdout; then
		echo "FAIL: $prog $kind: the steered run prints '$(cat steered.stdout)', not '$(cat baseline.stdout)'"
		failed=1
	fi
done

# A loop that calls nothing gets no point by default: each request waits
# for the loop's end, which here is the program's, and the program says
# at exit that it was not taken, by whom it was asked.
run baseline env POPCORN_NODES=0:x86_64:native ./plain counted 400
run_timeout=120 run untaken env 'POPCORN_MIGRATE=period=20ms;nodes=2' ./default counted 400
untaken="popcorn: the move POPCORN_MIGRATE asked for was not taken"
if grep -q "^$untaken" untaken.stderr && cmp -s baseline.stdout untaken.stdout; then
	echo "ok: ./default counted: period=20ms is not taken, and the program says so"
else
	echo "FAIL: ./default counted with period=20ms: no '$untaken' line, or other output:"
	cat untaken.run
	failed=1
fi
run baseline env POPCORN_NODES=0:x86_64:native ./plain counted 1600
./default counted 1600 >steered.stdout 2>steered.stderr &
pid=$!
sleep 0.5
timeout 30 "$ctl" migrate "$pid" 2 >ctl.out 2>&1 || echo "popcorn-ctl migrate: $(cat ctl.out)"
wait "$pid" || true
pid=
untaken="popcorn: the move to node 2 that popcorn-ctl asked for was not taken"
if grep -q "^$untaken" steered.stderr && cmp -s baseline.stdout steered.stdout; then
	echo "ok: ./default counted: popcorn-ctl's move is not taken, and the program says so"
else
	echo "FAIL: ./default counted with popcorn-ctl: no '$untaken' line, or other output:"
	cat steered.stderr steered.stdout
	failed=1
fi
exit $failed
