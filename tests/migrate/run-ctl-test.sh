#!/bin/sh
# popcorn-ctl steering a running program: it has no socket until asked,
# ps (the first to ask) lists it at home, migrate
# moves its thread to node 1 (aarch64, under qemu) and back (the request
# delivered while the thread is away), and the program prints what a run
# that never moves prints; its socket is gone after it ends.  Malformed
# requests, bad arguments, unknown processes and nodes are refused with a
# message and a non-zero exit, and a program whose socket directory is not
# private runs on with one warning when asked.  Every wait is bounded.
#
#   run-ctl-test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) work=$3
enter_work_dir "$work"
ctl=$build/bin/popcorn-ctl

# A runtime directory of this test's own, so that other programs' sockets
# are not in the way and none of ours is left elsewhere.
export XDG_RUNTIME_DIR="$work/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
sockets=$XDG_RUNTIME_DIR/popcorn


pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
}
trap cleanup EXIT

for program in ctl-loop ctl-garbage; do
	if ! timeout 300 "$build/bin/popcorn-clang" -O2 -I "$src/../../include" "$src/$program.c" \
		-o "$program" 2>"$program.build.err"; then
		echo "FAIL: popcorn-clang -O2 $program.c"
		cat "$program.build.err"
		exit 1
	fi
done

# expect_refusal WHAT COMMAND...: COMMAND must exit non-zero, but not by a
# signal or the timeout, with a message.
expect_refusal() {
	what=$1
	shift
	set +e
	"$@" >refusal.out 2>refusal.err
	status=$?
	set -e
	if [ $status -eq 0 ]; then
		fail "$what: exit status 0"
	elif [ $status -ge 124 ]; then
		fail "$what: exit status $status (a crash or the timeout): $(cat refusal.err)"
	elif [ ! -s refusal.err ]; then
		fail "$what: no message"
	else
		echo "ok: $what: exit $status: $(head -1 refusal.err)"
	fi
}

# The thread's node in `popcorn-ctl ps`'s line for $pid, or nothing.
node_in_ps() {
	timeout 30 "$ctl" ps >ps.out 2>ps.err || return 0
	awk -v pid="$pid" '$1 == pid { print $3 " " $4 " " $5 }' ps.out
}
at_node() {
	case $(node_in_ps) in "$1 "*) return 0 ;; esac
	return 1
}

# The run that never moves.
touch stop-now
timeout 120 ./ctl-loop stop-now >baseline.out 2>baseline.err ||
	fail "the run without migration exits with $?"
[ -z "$(ls -A "$sockets" 2>/dev/null)" ] || fail "sockets left after the run without migration: $(ls "$sockets")"

# The socket must not show in the program: the same descriptors as without it.
POPCORN_CONTROL=off timeout 120 ./ctl-loop stop-now >nosocket.out 2>nosocket.err ||
	fail "the run without a control socket exits with $?"
cmp -s baseline.out nosocket.out ||
	fail "the control socket changes what the program sees: $(diff baseline.out nosocket.out | tr '\n' ' ')"
grep -q '^fork:' baseline.out && fail "fork in the program: $(grep '^fork:' baseline.out)"

# The steered run.  Until popcorn-ctl first asks, it has no socket and
# no thread of the runtime's (its runtime started well before main
# printed).
./ctl-loop stop-steered >steered.out 2>steered.err &
pid=$!
if ! wait_until 30 grep -q "first descriptor" steered.out; then
	fail "the steered run did not start within 30 s"
	cat steered.err
	exit 1
fi
if [ -e "$sockets/$pid" ] || [ "$(ls /proc/"$pid"/task | wc -l)" -ne 1 ]; then
	fail "a program nobody asked opened its control socket: $(ls "$sockets" 2>&1),\
 threads $(ls /proc/"$pid"/task | tr '\n' ' ')"
else
	echo "ok: no socket and one thread before popcorn-ctl asks"
fi

# ps is the first to ask: the program opens its socket then.
if at_node 0; then
	echo "ok: ps lists $pid at node 0: $(grep "^$pid " ps.out)"
else
	fail "ps does not list $pid at node 0:"
	cat ps.out ps.err
fi
test -S "$sockets/$pid" || fail "no socket $sockets/$pid after ps asked"
ls -ld "$sockets" | grep -q '^drwx------' || fail "$sockets is not mode 0700: $(ls -ld "$sockets")"
head -1 ps.out | grep -q '^PID  *COMMAND  *NODE  *ISA  *MIGRATIONS  *PAGES  *WHERE$' || fail "ps has no header: $(head -1 ps.out)"
grep "^$pid " ps.out | grep -q ' home$' || fail "ps does not say $pid runs at home: $(grep "^$pid " ps.out)"
grep "^$pid " ps.out | grep -q ' ctl-loop ' || fail "ps does not name the command ctl-loop"

expect_refusal "migrate to node 9 (out of range)" timeout 30 "$ctl" migrate "$pid" 9
grep -q 'no node 9' refusal.err || fail "migrate to node 9: '$(cat refusal.err)' does not say there is no node 9"
expect_refusal "migrate to node 0 (already there)" timeout 30 "$ctl" migrate "$pid" 0
grep -q 'already on node 0' refusal.err || fail "migrate to node 0: '$(cat refusal.err)'"
expect_refusal "migrate a thread that does not exist" timeout 30 "$ctl" migrate "$pid/$((pid + 100000))" 1
grep -q "has no thread $((pid + 100000))" refusal.err || fail "migrate a thread that does not exist: '$(cat refusal.err)'"
# The program's only other thread is the runtime's server, which answers
# on the socket: it is there, and it is not the program's.
other=$(ls /proc/"$pid"/task | grep -vx "$pid" | head -1)
if [ -n "$other" ]; then
	expect_refusal "migrate thread $other" timeout 30 "$ctl" migrate "$pid/$other" 1
	grep -q "no thread $other in process $pid" refusal.err || fail "migrate $pid/$other: '$(cat refusal.err)'"
	grep -q "^$pid/" ps.out && fail "ps lists threads of a program of one: $(cat ps.out)"
else
	fail "no second thread (the control socket's server) in /proc/$pid/task: $(ls /proc/"$pid"/task | tr '\n' ' ')"
fi

if timeout 30 "$ctl" migrate "$pid" 1 >migrate1.out 2>&1; then
	echo "ok: migrate $pid 1: $(cat migrate1.out)"
else
	fail "migrate $pid 1: $(cat migrate1.out)"
fi
if wait_until 60 at_node "1 aarch64"; then
	echo "ok: ps shows $pid on node 1: $(grep "^$pid " ps.out)"
else
	fail "ps does not show $pid on node 1 within 60 s: $(node_in_ps)"
fi
timeout 30 "$ctl" nodes "$pid" >nodes.out 2>&1 || fail "nodes $pid: $(cat nodes.out)"
grep -q '^1  *aarch64  *qemu  *[0-9][0-9]*  *here  *started, reachable  *this host$' nodes.out ||
	fail "nodes does not show node 1 started, reachable and holding the thread:"
grep -q '^0  *x86_64  *native  *'"$pid"'  *home  *home$' nodes.out || fail "nodes does not show home as node 0"
grep -q '^2  *x86_64  *native  *-  *not started  *this host$' nodes.out || fail "nodes does not show node 2 not started"
cat nodes.out

# Delivered to the node the thread is on.
if timeout 30 "$ctl" migrate "$pid/$pid" 0 >migrate0.out 2>&1; then
	echo "ok: migrate $pid/$pid 0: $(cat migrate0.out)"
else
	fail "migrate $pid/$pid 0: $(cat migrate0.out)"
fi
if wait_until 60 at_node 0; then
	echo "ok: ps shows $pid back on node 0: $(grep "^$pid " ps.out)"
else
	fail "ps does not show $pid back on node 0 within 60 s: $(node_in_ps)"
fi
moves=$(node_in_ps | awk '{ print $3 }')
[ "${moves:-0}" -ge 1 ] || fail "ps counts ${moves:-no} migrations, expected at least 1"

# Malformed requests: each refused, the program still serving.
if timeout 60 ./ctl-garbage "$sockets/$pid" >garbage.out 2>garbage.err; then
	echo "ok: malformed requests refused:"
	sed 's/^/    /' garbage.out
else
	fail "malformed requests:"
	cat garbage.out garbage.err
fi
at_node 0 || fail "$pid does not answer after malformed requests"

touch stop-steered
# Bounded: killed (and failing) if it has not ended 60 s after its stop
# file.  The watchdog's output is not the test's, or ctest would wait for it.
(sleep 60 && kill "$pid") >/dev/null 2>&1 &
watchdog=$!
set +e
wait "$pid"
status=$?
set -e
pid=
kill "$watchdog" 2>/dev/null || true
[ $status -eq 0 ] || fail "the steered run exits with $status"
if cmp -s baseline.out steered.out; then
	echo "ok: the steered run prints what the run without migration prints"
else
	fail "the steered run's output differs:"
	diff -u baseline.out steered.out || true
	cat steered.err
fi
if ls -A "$sockets" | grep -q .; then
	fail "sockets left after the steered run: $(ls "$sockets")"
else
	echo "ok: no socket left after the run"
fi

# Refusals of popcorn-ctl itself.
expect_refusal "no arguments" "$ctl"
grep -q '^usage: popcorn-ctl' refusal.err || fail "no arguments: no usage text"
expect_refusal "unknown command" "$ctl" frobnicate
grep -q "unknown command 'frobnicate'" refusal.err || fail "unknown command: '$(cat refusal.err)'"
expect_refusal "migrate without a node" "$ctl" migrate 1
grep -q "wrong number of arguments for migrate" refusal.err || fail "migrate 1: '$(cat refusal.err)'"
expect_refusal "migrate to a node that is not a number" "$ctl" migrate 1 x
grep -q "'x' is not a node number" refusal.err || fail "migrate 1 x: '$(cat refusal.err)'"
for target in 1/ 1/x 1/2/3; do
	expect_refusal "migrate $target (no thread after the slash)" "$ctl" migrate $target 1
	grep -q "'$target' is not PID or PID/TID" refusal.err || fail "migrate $target 1: '$(cat refusal.err)'"
done
sleep 1 &
dead=$!
wait "$dead"
expect_refusal "nodes of an unknown PID" timeout 30 "$ctl" nodes "$dead"
grep -q "no process $dead" refusal.err || fail "nodes $dead: '$(cat refusal.err)' does not say there is no such process"
expect_refusal "migrate an unknown PID" timeout 30 "$ctl" migrate "$dead" 1
grep -q "no process $dead" refusal.err || fail "migrate $dead: '$(cat refusal.err)'"
expect_refusal "nodes of a process that is not a popcorn program" timeout 30 "$ctl" nodes $$
grep -q "not a popcorn program" refusal.err || fail "nodes $$: '$(cat refusal.err)'"

# A stale socket (its program killed) is removed by ps, not listed; nor
# is the child the program forked, a copy of its runtime that lingers
# (not a program of its own: it never exec'd).
CTL_LOOP_CHILD_LINGERS=5 ./ctl-loop stop-killed >killed.out 2>killed.err &
pid=$!
wait_until 30 grep -q "first descriptor" killed.out || fail "the program to kill did not start"
timeout 30 "$ctl" nodes "$pid" >nodes.out 2>&1 || fail "nodes $pid: $(cat nodes.out)"
test -S "$sockets/$pid" || fail "no socket for the program to kill"
child=$(awk -v parent="$pid" '$4 == parent { print $1 }' /proc/[0-9]*/stat 2>/dev/null | head -1)
[ -n "$child" ] || fail "the program to kill has no lingering child: $(cat killed.out killed.err)"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
killed=$pid
pid=
timeout 30 "$ctl" ps >ps.out 2>&1 || fail "ps with a stale socket: $(cat ps.out)"
if grep -q "^$killed " ps.out || [ -e "$sockets/$killed" ]; then
	fail "ps lists or keeps the stale socket of killed process $killed"
else
	echo "ok: ps removes the stale socket of killed process $killed"
fi
if [ -n "$child" ] && [ -d "/proc/$child" ] && ! grep -q "^$child " ps.out; then
	echo "ok: ps does not list the forked child $child"
else
	fail "ps lists the forked child '$child' or it is gone: $(cat ps.out)"
fi

# A socket directory open to others: asked, the program refuses with one
# warning and runs on (and with POPCORN_LOG=quiet, silently); popcorn-ctl
# says it did not open its socket.  POPCORN_CONTROL=off: never asked.
mkdir -m 755 "$work/open"
mkdir -m 755 "$work/open/popcorn"
# run_asked NAME VARIABLE=VALUE...: runs ctl-loop with these in its
# environment until popcorn-ctl has asked it for its node table, into
# NAME.out, NAME.err and NAME.ctl; its PID in asked.
run_asked() {
	name=$1
	shift
	rm -f "stop-$name"
	env "$@" ./ctl-loop "stop-$name" >"$name.out" 2>"$name.err" &
	pid=$!
	asked=$pid
	wait_until 30 grep -q "first descriptor" "$name.out" || fail "$name: the program did not start"
	timeout 30 "$ctl" nodes "$pid" >"$name.ctl" 2>&1 && fail "$name: nodes $pid answered: $(cat "$name.ctl")"
	touch "stop-$name"
	wait "$pid" || fail "$name: the program exits with $?"
	pid=
	cmp -s baseline.out "$name.out" || fail "$name: the output differs"
}
run_asked open XDG_RUNTIME_DIR="$work/open"
if [ "$(grep -c 'popcorn: no control socket' open.err)" -eq 1 ] && grep -q 'mode 0700' open.err &&
	grep -q 'did not open its control socket' open.ctl; then
	echo "ok: open socket directory: $(cat open.err)"
else
	fail "open socket directory: expected one warning, stderr: $(cat open.err), popcorn-ctl: $(cat open.ctl)"
fi
run_asked quiet XDG_RUNTIME_DIR="$work/open" POPCORN_LOG=quiet
[ ! -s quiet.err ] || fail "POPCORN_LOG=quiet still warns: $(cat quiet.err)"
[ -z "$(ls -A "$work/open/popcorn")" ] || fail "a socket was made in the open directory"
run_asked off POPCORN_CONTROL=off
grep -q 'runs with POPCORN_CONTROL=off' off.ctl || fail "POPCORN_CONTROL=off: popcorn-ctl says '$(cat off.ctl)'"
[ ! -e "$sockets/$asked" ] || fail "POPCORN_CONTROL=off: a socket was made"

exit $failed
