#!/bin/sh
# popcorn-ctl steering the threads of a program one by one: ctl-threads.c's
# two workers loop at home.  ps lists the program's three threads (not
# the runtime's control thread), migrate PID/TID moves worker 2 to node 1;
# worker 1, asked to go to node 2 meanwhile, goes once worker 2 is back
# (one thread is away at a time), and a request for main meanwhile is
# refused (one request waits at a time); ps shows each where it is.  At the end
# each worker says it ran on home and its own node alone, the main thread
# never moved, and stdout is what a run that never moves prints.
#
#   run-ctl-threads.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) work=$3
enter_work_dir "$work"
ctl=$build/bin/popcorn-ctl
export XDG_RUNTIME_DIR="$work/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"

pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT

if ! timeout 300 "$build/bin/popcorn-clang" -O2 "$src/ctl-threads.c" -o ctl-threads 2>build.err; then
	echo "FAIL: popcorn-clang -O2 ctl-threads.c"
	cat build.err
	exit 1
fi

touch stop-now
timeout 120 ./ctl-threads stop-now >baseline.out 2>baseline.err ||
	fail "the run without migration exits with $?"

POPCORN_TRACE=steered.json ./ctl-threads stop >steered.out 2>steered.err &
pid=$!
both_started() { grep -q "worker 1 tid" steered.err && grep -q "worker 2 tid" steered.err; }
wait_until 30 both_started || {
	fail "the workers did not start within 30 s"
	cat steered.err
	exit 1
}
tid1=$(sed -n 's/^worker 1 tid //p' steered.err)
tid2=$(sed -n 's/^worker 2 tid //p' steered.err)

# node_of TID: the node ps shows thread TID of $pid on.
node_of() {
	timeout 30 "$ctl" ps >ps.out 2>ps.err || return 0
	awk -v id="$pid/$1" '$1 == id { print $2 }' ps.out
}
on_node() { [ "$(node_of "$1")" = "$2" ]; }

on_node "$pid" 0 || fail "ps does not show the main thread $pid/$pid at node 0: $(cat ps.out ps.err)"
threads=$(grep -c "^$pid/" ps.out || true)
[ "$threads" -eq 3 ] || fail "ps lists $threads threads of $pid, expected 3: $(cat ps.out)"
control=$(ls /proc/"$pid"/task | grep -vx -e "$pid" -e "$tid1" -e "$tid2" | head -1)
if [ -z "$control" ]; then
	fail "no runtime control thread in /proc/$pid/task after ps asked"
elif timeout 30 "$ctl" migrate "$pid/$control" 1 >refusal.out 2>&1; then
	fail "migrate $pid/$control (the runtime's control thread) was taken"
elif ! grep -q "no thread $control in process $pid" refusal.out; then
	fail "migrate $pid/$control: '$(cat refusal.out)'"
fi

steer() {
	timeout 30 "$ctl" migrate "$pid/$1" "$2" >steer.out 2>&1 || fail "migrate $pid/$1 $2: $(cat steer.out)"
}
steer "$tid2" 1
wait_until 60 on_node "$tid2" 1 || fail "ps does not show worker 2 ($tid2) on node 1: $(cat ps.out)"
on_node "$tid1" 0 || fail "worker 1 ($tid1) is not at home while worker 2 is away: $(cat ps.out)"
steer "$tid1" 2
grep -q "moves to node 2 (x86_64) at its next migration point, once thread $tid2 is back from node 1" steer.out ||
	fail "migrate $pid/$tid1 2 does not say it waits for thread $tid2: $(cat steer.out)"
# One request waits at a time: a second is refused, not put in its place.
if timeout 30 "$ctl" migrate "$pid/$pid" 1 >busy.out 2>&1; then
	fail "migrate $pid/$pid 1 was taken while thread $tid1's move waited: $(cat busy.out)"
elif ! grep -q "the move of thread $tid1 to node 2 waits to be taken" busy.out; then
	fail "migrate $pid/$pid 1 while another request waits: $(cat busy.out)"
fi
sleep 0.2
on_node "$tid1" 0 || fail "worker 1 left while worker 2 was away: $(cat ps.out)"
steer "$tid2" 0
wait_until 60 on_node "$tid1" 2 || fail "ps does not show worker 1 ($tid1) on node 2: $(cat ps.out)"
on_node "$tid2" 0 || fail "worker 2 ($tid2) is not back home: $(cat ps.out)"
steer "$tid1" 0
wait_until 60 on_node "$tid1" 0 || fail "worker 1 ($tid1) does not come back: $(cat ps.out)"

touch stop
wait "$pid" || fail "the steered run exits with $?"
pid=
cmp -s baseline.out steered.out || fail "the steered run's stdout differs: $(diff baseline.out steered.out)"
grep -qx "worker 1 visited 0 2" steered.err || fail "worker 1: $(grep 'worker 1 visited' steered.err)"
grep -qx "worker 2 visited 0 1" steered.err || fail "worker 2: $(grep 'worker 2 visited' steered.err)"
grep -qx "main on node 0" steered.err || fail "main: $(grep '^main' steered.err)"
! grep -q "was not taken" steered.err || fail "a move asked for was not taken: $(cat steered.err)"
# Apart from ps (whose view is the runtime's own): in the trace, worker 1
# left home only after worker 2 was back.
python3 - steered.json "$tid1" "$tid2" <<'EOF' || fail "worker 1 went to node 2 before worker 2 was back"
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
one, two = int(sys.argv[2]), int(sys.argv[3])
moves = [e for e in events if e.get("cat") == "migration"]
went = [e for e in moves if e["pid"] == 1 and e["tid"] == 10**7 + one and e["args"]["to"] == 2]
back = [e for e in moves if e["pid"] == 2 and e["tid"] == 2 * 10**7 + two and e["args"]["to"] == 0]
ok = len(went) == 1 and len(back) == 1 and went[0]["ts"] >= back[0]["ts"] + back[0]["dur"]
if not ok:
    print(f"worker 1 to node 2: {[(e['ts'], e['dur']) for e in went]}, "
          f"worker 2 back home: {[(e['ts'], e['dur']) for e in back]}")
sys.exit(0 if ok else 1)
EOF

[ "$failed" -eq 0 ] && echo "PASS: popcorn-ctl ps lists each thread, migrate PID/TID moves each alone"
exit "$failed"
