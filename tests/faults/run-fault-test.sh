#!/bin/sh
# One injected fault (CASE) against a migrating program or a node link:
#
#   run-fault-test.sh BUILD_DIR CASE WORK_DIR
#
#   tcp-roundtrip       tests/migrate/roundtrips.c with its nodes behind
#                       popcorn-node (aarch64 under qemu, x86-64 native):
#                       the same output as a run that stays home
#   stack-top           the arguments and environment above the main
#                       thread's stack, at every offset of its end in a page
#   address-taken       a qemu node whose own stack takes the addresses of
#                       home's arguments: home starts another process, the
#                       output is what a run at home prints
#   wrong-key           a node with another key: the move is refused, the
#                       program completes at home, the node logs the refusal
#   unreachable         a tcp node where nothing listens, and qemu missing:
#                       refused moves, the program completes at home
#   node-killed         kill -9 of the node while the thread computes there
#   node-killed-paging  kill -9 of the node while it fetches pages
#   node-ended-qemu     kill -9 of the node (qemu) while the thread is
#                       home: the next move there starts it again, and
#                       the work is what a run at home prints
#   node-ended-tcp      the same with a tcp: node (popcorn-node's child)
#   node-aborts         abort() on a qemu node and on a tcp: node: home
#                       ends by SIGABRT, as a run at home does
#   home-killed         kill -9 of home while the thread is away: the node
#                       ends too
#   home-killed-thread  the same, the thread away not the main one
#   silent-node         a thread computing away longer than POPCORN_TIMEOUT
#                       without a word to home, then a node idle as long:
#                       neither is a dead node
#   fuzz-node           malformed connections against popcorn-node
#   fuzz-context        malformed messages against remote contexts
#   fuzz-hung-context   fuzz-link itself: a context that closes its link
#                       and runs on must be reported as not ending
#
# A killed node must end the program within the timeout, with a message
# naming the node and a non-zero status; what the program printed before
# is in its output.
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR CASE WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) case=$2 work=$3
tests=$(cd "$(dirname "$0")/.." && pwd)
enter_work_dir "$work"
export POPCORN_KEY_FILE="$work/node.key"
fail() {
	echo "FAIL: $*"
	for f in *.out *.err; do
		[ -s "$f" ] && { echo "--- $f"; tail -20 "$f"; }
	done
	exit 1
}
node_pid=
cleanup() { [ -n "$node_pid" ] && kill "$node_pid" 2>/dev/null || true; }
trap cleanup EXIT

compile() { # SOURCE OUTPUT
	timeout 300 "$build/bin/popcorn-clang" -O2 "$1" -o "$2" 2>build.err ||
		fail "popcorn-clang $1"
}

start_node() { # KEY_FILE: popcorn-node on a port the kernel chooses
	# The file exists before the loop reads it: the background shell may
	# open it later, and a failing sed would end this script (set -e).
	: >node.out
	"$build/bin/popcorn-node" --listen 127.0.0.1:0 --key "$1" >node.out 2>node.err &
	node_pid=$!
	for i in $(seq 300); do
		port=$(sed -n 's/^popcorn-node: listening on .*:\([0-9]*\)$/\1/p' node.out)
		[ -n "$port" ] && return 0
		sleep 0.1
	done
	fail "popcorn-node did not start"
}

# Waits at most $2 seconds for file $1 to contain $3.
wait_for() {
	for i in $(seq $(($2 * 10))); do
		grep -q "$3" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

case $case in
address-taken)
	# qemu-user's own stack sits where home's arguments are when neither
	# randomizes its addresses; home asks for randomization for the node
	# (StartNodes.cpp: spawnImage), so the qemu-aarch64 first on the PATH
	# turns it off again for its first run only: what a random placement
	# does once in a while, made certain.
	if ! setarch -R true 2>/dev/null; then
		echo "SKIP: this machine does not let a process turn address randomization off"
		exit 77
	fi
	qemu=$(command -v qemu-aarch64) || fail "no qemu-aarch64"
	mkdir -p qemu-bin
	cat >qemu-bin/qemu-aarch64 <<WRAPPER
#!/bin/sh
echo run >>"$work/qemu-runs"
[ "\$(wc -l <"$work/qemu-runs")" -eq 1 ] && exec setarch -R "$qemu" "\$@"
exec "$qemu" "\$@"
WRAPPER
	chmod +x qemu-bin/qemu-aarch64
	compile "$tests/migrate/roundtrips.c" prog
	POPCORN_NODES=0:x86_64:native timeout 120 setarch -R ./prog >home.out 2>home.err ||
		fail "the run that stays home failed"
	PATH=$work/qemu-bin:$PATH POPCORN_NODES=0:x86_64:native,1:aarch64:qemu POPCORN_LOG=stats \
		timeout 120 setarch -R ./prog >moved.out 2>moved.err || fail "the moving run failed"
	runs=$(wc -l <qemu-runs)
	[ "$runs" -ge 2 ] || fail "qemu-aarch64 ran $runs time(s): the first node never took the address"
	cmp -s home.out moved.out || fail "the moving run prints other output than the run at home"
	grep -q 'taken' moved.err && fail "the taken address was reported: $(cat moved.err)"
	moves=$(sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p' moved.err)
	[ "${moves:-0}" -ge 1 ] || fail "the thread did not move to the second node"
	echo "ok: $runs qemu processes, $moves moves, output identical"
	;;
tcp-roundtrip)
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_node "$POPCORN_KEY_FILE"
	compile "$tests/migrate/roundtrips.c" prog
	POPCORN_NODES=0:x86_64:native timeout 120 ./prog >home.out 2>home.err ||
		fail "the run that stays home failed"
	POPCORN_NODES=0:x86_64:native,1:aarch64:tcp:127.0.0.1:$port,2:x86_64:tcp:127.0.0.1:$port \
		POPCORN_LOG=stats timeout 120 ./prog >tcp.out 2>tcp.err || fail "the run over tcp failed"
	cmp -s home.out tcp.out || fail "the run over tcp prints other output than the run at home"
	moves=$(sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p' tcp.err)
	[ "${moves:-0}" -ge 2 ] || fail "the thread did not move over tcp"
	grep -q "node 1 (aarch64)" node.err || fail "popcorn-node served no aarch64 node"
	grep -q "node 2 (x86_64)" node.err || fail "popcorn-node served no x86_64 node"
	echo "ok: $moves moves over tcp, output identical"
	;;
stack-top)
	# Home without address randomization (its stack where the kernel puts
	# it by default), its node behind popcorn-node (with it): the
	# environment grows 16 bytes at a time, so that one of the 256 runs has
	# the main thread's stack end on a page boundary, and the page above it
	# holds nothing but arguments.
	if ! setarch -R true 2>/dev/null; then
		echo "SKIP: this machine does not let a process turn address randomization off"
		exit 77
	fi
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_node "$POPCORN_KEY_FILE"
	compile "$tests/faults/arguments.c" arguments
	pad=
	for i in $(seq 256); do
		POPCORN_NODES=0:x86_64:native,1:x86_64:tcp:127.0.0.1:$port PAD=$pad timeout 60 \
			setarch -R ./arguments >args.out 2>args.err ||
			fail "with $((${#pad})) bytes of padding: $(cat args.out args.err)"
		pad=${pad}0123456789abcdef
	done
	echo "ok: arguments and environment unchanged after 256 moves, one at every stack offset"
	;;
wrong-key)
	"$build/bin/popcorn-node" --new-key node.key >/dev/null
	"$build/bin/popcorn-node" --new-key other.key >/dev/null
	start_node node.key
	compile "$tests/faults/worker.c" worker
	POPCORN_NODES=0:x86_64:native timeout 60 ./worker 0 64 3 >home.out 2>home.err ||
		fail "the run that stays home failed"
	POPCORN_KEY_FILE=$work/other.key POPCORN_NODES=0:x86_64:native,1:aarch64:tcp:127.0.0.1:$port \
		timeout 60 ./worker 1 64 3 >key.out 2>key.err || fail "the program did not complete at home"
	cmp -s home.out key.out || fail "the refused run prints other output than the run at home"
	grep -q "cannot start node 1 (aarch64 at 127.0.0.1:$port): it failed authentication" key.err ||
		fail "no warning that the node failed authentication"
	grep -q "worker: stays home" key.err || fail "popcorn_migrate did not fail"
	wait_for node.err 5 "failed authentication; connection dropped" ||
		fail "popcorn-node did not log the refused connection"
	# A key others can read is refused before any connection.
	chmod 644 other.key
	POPCORN_KEY_FILE=$work/other.key POPCORN_NODES=0:x86_64:native,1:aarch64:tcp:127.0.0.1:$port \
		timeout 60 ./worker 1 64 3 >open.out 2>open.err || fail "the program did not complete"
	grep -q "must belong to you and be private" open.err || fail "a readable key file was used"
	echo "ok: refused, completed at home"
	;;
unreachable)
	"$build/bin/popcorn-node" --new-key node.key >/dev/null
	compile "$tests/faults/worker.c" worker
	POPCORN_NODES=0:x86_64:native timeout 60 ./worker 0 64 3 >home.out 2>home.err ||
		fail "the run that stays home failed"
	# A port nobody listens on: one the kernel gave popcorn-node, closed.
	start_node node.key
	kill "$node_pid"
	wait "$node_pid" 2>/dev/null || true
	node_pid=
	POPCORN_NODES=0:x86_64:native,1:aarch64:tcp:127.0.0.1:$port timeout 60 ./worker 1 64 3 \
		>tcp.out 2>tcp.err || fail "the program did not complete at home"
	cmp -s home.out tcp.out || fail "the refused run prints other output than the run at home"
	grep -q "cannot start node 1 (aarch64 at 127.0.0.1:$port): cannot connect" tcp.err ||
		fail "no warning that the node cannot be reached"
	# qemu-user missing: the default node 1 cannot start.
	mkdir -p nopath
	timeout 60 env PATH="$work/nopath" ./worker 1 64 3 >qemu.out 2>qemu.err ||
		fail "the program did not complete at home"
	cmp -s home.out qemu.out || fail "the refused run prints other output than the run at home"
	grep -q "qemu-aarch64 is not installed" qemu.err || fail "no warning that qemu is missing"
	# POPCORN_LOG=quiet: no warning, the same refusal.
	timeout 60 env PATH="$work/nopath" POPCORN_LOG=quiet ./worker 1 64 3 >quiet.out 2>quiet.err
	grep -q "popcorn:" quiet.err && fail "POPCORN_LOG=quiet still warns"
	grep -q "worker: stays home" quiet.err || fail "popcorn_migrate did not fail"
	echo "ok: unreachable nodes refused, completed at home"
	;;
node-killed | node-killed-paging)
	compile "$tests/faults/worker.c" worker
	# Computing: a few pages touched over and over; paging: a new page
	# fetched from home at every step.
	pages=4
	[ "$case" = node-killed-paging ] && pages=20000
	POPCORN_TIMEOUT=5s ./worker 1 "$pages" 0 >run.out 2>run.err &
	home=$!
	if [ "$case" = node-killed ]; then
		wait_for run.err 60 "working on node 1" || fail "the thread never reached node 1"
		sleep 0.5
	else
		# Killed in the middle of the first pass: while it fetches pages.
		wait_for run.err 60 "working on node 1" || fail "the thread never reached node 1"
		sleep 0.3
	fi
	node=$(child_of "$home")
	[ -n "$node" ] || fail "no node process under home $home"
	kill -9 "$node"
	for i in $(seq 100); do kill -0 "$home" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$home" 2>/dev/null; then
		kill -9 "$home"
		fail "home still runs 10 s after its node was killed"
	fi
	status=0
	wait "$home" || status=$?
	[ "$status" -ne 0 ] || fail "the program ended with status 0 after losing its thread"
	grep -q "popcorn: node 1 (aarch64) ended while the thread was there: killed by signal 9" run.err ||
		fail "no message naming the killed node"
	grep -q "^start: $pages pages" run.out || fail "output printed before the move was lost"
	echo "ok: status $status, $(grep 'popcorn: node 1' run.err)"
	;;
node-ended-qemu | node-ended-tcp)
	compile "$tests/faults/revisit.c" revisit
	touch go
	POPCORN_NODES=0:x86_64:native timeout 60 ./revisit 1 go >home.out 2>home.err ||
		fail "the run that stays home failed"
	rm go
	nodes=0:x86_64:native,1:aarch64:qemu parent=
	if [ "$case" = node-ended-tcp ]; then
		"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
		start_node "$POPCORN_KEY_FILE"
		nodes=0:x86_64:native,1:aarch64:tcp:127.0.0.1:$port parent=$node_pid
	fi
	POPCORN_NODES=$nodes POPCORN_TIMEOUT=5s ./revisit 1 go >run.out 2>run.err &
	home=$!
	wait_for run.err 60 "home again" || fail "the thread never came home from node 1"
	if [ -n "$parent" ]; then # popcorn-node's process for the connection waits for the node
		node=$(child_of "$(child_of "$parent")")
	else
		node=$(child_of "$home")
	fi
	[ -n "$node" ] || fail "no node process under ${parent:-home $home}"
	grep -q "trip 1 on node 1$" run.err || fail "the first trip did not reach node 1"
	kill -9 "$node"
	for i in $(seq 100); do ended "$node" && break; sleep 0.1; done
	touch go
	status=0
	wait "$home" || status=$?
	[ "$status" -eq 0 ] || fail "the program ended with status $status"
	# Killed by signal 9: home reaps its own node; popcorn-node tells of its.
	grep -q "^popcorn: node 1 (aarch64.*) ended while the thread was home (it was killed by signal 9); it starts again$" \
		run.err || fail "no line saying the node ended while the thread was home"
	grep -q "trip 2 on node 1$" run.err || fail "the second trip did not reach node 1"
	cmp -s home.out run.out || fail "the work differs from a run at home"
	echo "ok: $(grep 'ended while' run.err)"
	;;
node-aborts)
	compile "$tests/faults/abort-away.c" abort-away
	# aborted NAME NODES: the run with node 1 of NODES ends as the run at
	# home did, with a line that the node was killed by SIGABRT.
	aborted() {
		status=0
		POPCORN_NODES=$2 timeout 60 ./abort-away 1 >"$1.out" 2>"$1.err" || status=$?
		grep -q "aborts on node 1" "$1.err" || fail "$1: the thread did not reach node 1"
		[ "$status" = "$home_status" ] ||
			fail "$1: status $status, the run at home's $home_status"
		grep -q "^popcorn: node 1 (aarch64.*) ended while the thread was there: killed by signal 6$" \
			"$1.err" || fail "$1: no line saying node 1 was killed by signal 6"
		echo "ok: $1: status $status, $(grep '^popcorn:' "$1.err")"
	}
	home_status=0
	POPCORN_NODES=0:x86_64:native timeout 60 ./abort-away 1 >home.out 2>home.err ||
		home_status=$?
	[ "$home_status" -gt 128 ] || fail "the run at home did not abort: status $home_status"
	aborted qemu 0:x86_64:native,1:aarch64:qemu
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_node "$POPCORN_KEY_FILE"
	aborted tcp 0:x86_64:native,1:aarch64:tcp:127.0.0.1:$port
	grep -q "node 1 (aarch64) killed by signal 6" node.err || fail "popcorn-node did not log the abort"
	;;
home-killed | home-killed-thread)
	# home-killed-thread: the thread away is not the main one, and the
	# node is not a child of the main thread (the kernel's parent-death
	# signal is for the end of the thread that started it).
	if [ "$case" = home-killed ]; then
		compile "$tests/faults/worker.c" worker
		set -- ./worker 1 4 0
	else
		compile "$tests/faults/thread-worker.c" worker
		set -- ./worker 1
	fi
	"$@" >run.out 2>run.err &
	home=$!
	wait_for run.err 60 "working on node 1" || fail "the thread never reached node 1"
	node=$(child_of "$home")
	[ -n "$node" ] || fail "no node process under home $home"
	kill -9 "$home"
	wait "$home" 2>/dev/null || true
	for i in $(seq 100); do kill -0 "$node" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$node" 2>/dev/null; then
		kill -9 "$node"
		fail "the node outlived its home by 10 s"
	fi
	echo "ok: the node ended with its home"
	;;
silent-node)
	compile "$tests/faults/silent.c" silent
	POPCORN_TIMEOUT=1s timeout 60 ./silent 2 3 >run.out 2>run.err || fail "the program failed"
	grep -qx "moved, computed a while, moved again" run.out ||
		fail "the thread did not compute away, or the idle node was gone"
	echo "ok: 3 s of silence on node 2, then 3 s idle, with POPCORN_TIMEOUT=1s"
	;;
fuzz-node)
	"$build/bin/popcorn-node" --new-key node.key >/dev/null
	start_node node.key
	timeout 280 "$build/tests/faults/fuzz-link" node 127.0.0.1:$port node.key 2000 >fuzz.out 2>&1 ||
		fail "fuzz-link node"
	kill -0 "$node_pid" 2>/dev/null || fail "popcorn-node died"
	grep -q "killed by signal" node.err && fail "a connection's process crashed"
	cat fuzz.out
	;;
fuzz-context)
	compile "$tests/faults/worker.c" worker
	timeout 280 "$build/tests/faults/fuzz-link" context ./worker 600 >fuzz.out 2>&1 ||
		fail "fuzz-link context"
	cat fuzz.out
	;;
fuzz-hung-context)
	# Context 0 is fed before authentication (fuzz-link's fixed seed), so
	# a context that says nothing is fine until it fails to end.
	printf '#!/bin/sh\nexec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- /bin/sleep 30\n' >hung
	chmod +x hung
	set +e
	timeout 60 "$build/tests/faults/fuzz-link" context ./hung 1 >fuzz.out 2>&1
	status=$?
	set -e
	[ $status -eq 1 ] && grep -q '^FAIL: context 0 (stage 0) did not end$' fuzz.out ||
		fail "fuzz-link passed a context that never ended (exit $status)"
	echo "ok: fuzz-link reports a context that never ends: $(cat fuzz.out)"
	;;
*)
	echo "$0: unknown case $case" >&2
	exit 2
	;;
esac
