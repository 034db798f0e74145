#!/bin/sh
# Home on aarch64.  popcorn-inspect extract --isa aarch64 gives an
# executable that, run under qemu-aarch64, is home and moves its thread to
# x86-64 (node 1) and another aarch64 process (node 2) with every feature:
#   - aarch64-home.c's own moves: it prints what a native clang build
#     prints, each move lands on a node of the ISA the table says, and
#     one reaches node 1 while a second thread of the program waits;
#   - a schedule (POPCORN_MIGRATE) moves it, with the same output;
#   - its trace (POPCORN_TRACE) holds the moves (check-trace.py), and
#     popcorn-inspect trace counts them;
#   - popcorn-ctl lists ctl-loop.c's one thread (not qemu's), moves it
#     0 -> 1 -> 2 -> 0 and lists
#     the nodes as they run: home under qemu, node 1 native;
#   - growing-blocks.c mallocs and writes growing blocks on node 2, then
#     on node 1, and at home, and prints what its native build prints;
#   - protections.c, mappings.c and retained.c print moving what they
#     print staying home: the pages the program protects fault on every
#     node as at home;
#   - the file carries the multi-ISA one: extract --isa x86_64 gives it
#     back byte for byte, and popcorn-inspect verify checks both ISAs.
#
#   run-aarch64-home.sh BUILD_DIR SOURCE_DIR WORK_DIR CLANG
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 4 ]; then
	echo "usage: $0 BUILD_DIR SOURCE_DIR WORK_DIR CLANG" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) work=$3 clang=$4
enter_work_dir "$work"
bin=$build/bin
export XDG_RUNTIME_DIR="$(pwd)/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"


# build NAME: NAME.c with popcorn-clang, and its aarch64 executable NAME.aarch64.
build() {
	if ! timeout 300 "$bin/popcorn-clang" -O2 "$src/$1.c" -o "$1" 2>"$1.build.err" ||
		! "$bin/popcorn-inspect" extract --isa aarch64 "$1" "$1.aarch64" 2>>"$1.build.err"; then
		echo "FAIL: building $1 and extracting its aarch64 executable:"
		cat "$1.build.err"
		exit 1
	fi
}
build aarch64-home
build ctl-loop
build growing-blocks
"$clang" -O2 -pthread "$src/aarch64-home.c" -o native || { echo "FAIL: the native build"; exit 1; }
rm -f away.txt
run native ./native
grep -q '^=== exit status 0$' native.run || { echo "FAIL: the native build's run:"; cat native.run; exit 1; }

# moved NAME MIN VAR=VALUE...: aarch64-home.aarch64 under qemu-aarch64 with
# these variables prints what the native build prints, and leaves home
# MIN times or more, each time for a node of the right ISA.
moved() {
	name=$1 min=$2
	shift 2
	rm -f away.txt # written by each run: what it reads back is its own
	run "$name" env POPCORN_LOG=stats "$@" qemu-aarch64 ./aarch64-home.aarch64
	take_report "$name" "popcorn: migrations: "
	away=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	if ! cmp -s native.stdout "$name.stdout" || ! grep -q '^=== exit status 0$' "$name.run"; then
		fail "$name ($*): the run differs from the native build's:"
		diff -u native.stdout "$name.stdout" || true
		cat "$name.run"
	elif ! at_least "$name" "$away" "$min" "fewer than $min migrations"; then
		cat "$name.stderr"
		failed=1
	elif ! grep -q ', 0 on a node of another ISA' "$name.stderr" ||
		! grep -q 'with a second thread running: moved, the other waited' "$name.stderr"; then
		fail "$name: $(grep '^aarch64-home:' "$name.stderr" | tr '\n' ' ')"
	else
		echo "ok: $name: $report"
	fi
}

moved own-moves 24
# 12 each in its loop, and one to node 1 with a second thread running.
echo "$report" | grep -q '(13 to node 1, 12 to node 2)' ||
	fail "own-moves: not 13 moves to node 1 and 12 to node 2: $report"
# threads=main: the program's second thread, on a course of its own
# otherwise, could be away when main asks to move with it running.
moved schedule 20 NO_MOVES=1 'POPCORN_MIGRATE=every=1;nodes=1,0,2,0;threads=main'
# The program counts only its own moves: the schedule's are the report's.
[ "$(moves_to 1)" -ge 10 ] && [ "$(moves_to 2)" -ge 10 ] ||
	fail "schedule: not 10 moves to each of nodes 1 and 2: $report"

# The trace of the program's own moves.
moved traced 24 POPCORN_TRACE=trace.json
moves=$(sed -n 's/^aarch64-home: \([0-9]*\) moves.*/\1/p' traced.stderr)
# The x86-64 node forwards the calls aarch64's kernel lacks, which home
# makes with their replacements (the node and home share this directory,
# so only the trace tells a call run on the node from one run at home).
python3 - trace.json <<'EOF' || fail "the x86-64 node did not forward stat, pipe, poll and dup2"
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["name"] for e in events if e.get("cat") == "syscall" and e.get("pid") == 2}
missing = {"stat", "pipe", "poll", "dup2"} - names
if missing:
    print("not forwarded by node 1:", sorted(missing), "forwarded:", sorted(names))
    sys.exit(1)
EOF
if python3 "$src/check-trace.py" trace.json "${moves:-0}"; then
	"$bin/popcorn-inspect" trace trace.json >trace.summary 2>&1 || fail "popcorn-inspect trace: $(cat trace.summary)"
	grep -q "^migrations: $moves," trace.summary ||
		fail "popcorn-inspect trace does not count $moves migrations: $(head -3 trace.summary)"
else
	failed=1
fi

# Blocks malloc'd and written away and at home, next to pages home's
# program may not read (malloc's guard page, the arena's reservation):
# the same output as the native build's, and every round's move made.
"$clang" -O2 "$src/growing-blocks.c" -o growing-blocks.native ||
	{ echo "FAIL: the native build of growing-blocks"; exit 1; }
run growing-blocks.native ./growing-blocks.native
grep -q '^=== exit status 0$' growing-blocks.native.run ||
	fail "the native build of growing-blocks: $(cat growing-blocks.native.run)"
for node in 2 1; do
	name=growing-blocks.$node
	run "$name" env POPCORN_LOG=stats qemu-aarch64 ./growing-blocks.aarch64 "$node"
	take_report "$name" "popcorn: migrations: "
	if ! cmp -s growing-blocks.native.run "$name.run"; then
		fail "growing-blocks on node $node differs from the native build's run:"
		diff -u growing-blocks.native.run "$name.run" || true
	elif at_least "$name" "$(moves_to "$node")" 12 "fewer than 12 moves to node $node"; then
		echo "ok: growing-blocks on node $node: $report"
	else
		failed=1
	fi
done

# The protections the program gives its pages hold on every node (these
# programs' migrate.* tests, home on x86-64): moving, each prints what it
# prints staying home (node 0 alone, every move refused).
for prog in protections mappings retained; do
	build "$prog"
	min=$(sed -n 's,^// MIGRATE-MIN: *,,p' "$src/$prog.c")
	run "$prog.home" env POPCORN_NODES=0:aarch64:native qemu-aarch64 "./$prog.aarch64"
	run "$prog.moved" env POPCORN_LOG=stats qemu-aarch64 "./$prog.aarch64"
	take_report "$prog.moved" "popcorn: migrations: "
	away=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	if ! grep -q '^=== exit status 0$' "$prog.home.run"; then
		fail "$prog staying home: $(cat "$prog.home.run")"
	elif ! cmp -s "$prog.home.stdout" "$prog.moved.stdout" ||
		! grep -q '^=== exit status 0$' "$prog.moved.run"; then
		fail "$prog moving differs from staying home:"
		diff -u "$prog.home.stdout" "$prog.moved.stdout" || true
		cat "$prog.moved.run"
	elif at_least "$prog.moved" "$away" "$min" "fewer than $min migrations"; then
		echo "ok: $prog: $report"
	else
		failed=1
	fi
done

# popcorn-ctl, from outside.
# thread_on NODE ISA LAUNCHER: popcorn-ctl nodes says the thread is on NODE.
thread_on() {
	timeout 30 "$bin/popcorn-ctl" nodes "$pid" >nodes.out 2>&1 &&
		grep -q "^$1  *$2  *$3  *[0-9][0-9]*  *here " nodes.out
}
qemu-aarch64 ./ctl-loop.aarch64 stop-steered >steered.out 2>steered.err &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
wait_until 60 grep -q "first descriptor" steered.out || fail "ctl-loop did not start within 60 s"
# One thread of the program's, whatever qemu runs beside it: ps lists no
# thread lines.
timeout 30 "$bin/popcorn-ctl" ps >ps.out 2>&1 || fail "popcorn-ctl ps: $(cat ps.out)"
grep -q "^$pid " ps.out || fail "popcorn-ctl ps does not list $pid: $(cat ps.out)"
! grep -q "^$pid/" ps.out || fail "popcorn-ctl ps lists qemu's threads as the program's: $(cat ps.out)"
for step in "1 x86_64 native" "2 aarch64 qemu" "0 aarch64 qemu"; do
	set -- $step
	if ! timeout 30 "$bin/popcorn-ctl" migrate "$pid" "$1" >migrate.out 2>&1; then
		fail "popcorn-ctl migrate $pid $1: $(cat migrate.out)"
	elif ! wait_until 60 thread_on "$@"; then
		fail "popcorn-ctl nodes does not show the thread on node $1 ($2, $3) within 60 s:"
		cat nodes.out
	else
		echo "ok: popcorn-ctl moved the thread to node $1 ($2, $3)"
	fi
done
cat nodes.out
touch stop-steered
status=0
wait "$pid" || status=$?
trap - EXIT
if [ $status -ne 0 ] || ! grep -q '^rounds that differ: 0$' steered.out ||
	! grep -q '^node at the end: 0$' steered.out; then
	fail "the steered ctl-loop ended with status $status:"
	cat steered.out steered.err
fi

# The file carries the multi-ISA one.
"$bin/popcorn-inspect" extract --isa x86_64 aarch64-home.aarch64 back.x86_64 ||
	fail "extract --isa x86_64 from the aarch64 executable"
cmp -s back.x86_64 aarch64-home || fail "the x86-64 file extracted back differs from the one built"
"$bin/popcorn-inspect" verify aarch64-home.aarch64 || fail "popcorn-inspect verify aarch64-home.aarch64"
exit $failed
