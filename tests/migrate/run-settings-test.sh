#!/bin/sh
# Settings read at start-up (POPCORN_NODES, POPCORN_MIGRATE,
# POPCORN_CHECK_UNWIND, POPCORN_LOG, POPCORN_TRACK_WRITES, POPCORN_SELFTEST)
# do what they say or are refused with one line
# naming the bad part, and the README's `kill -RTMIN $(pidof prog)` moves
# the thread, from home and while it is away (tests/migrate/steered.c).
#
#   run-settings-test.sh BUILD_DIR SOURCE WORK_DIR
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$2 work=$3
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
rm -rf "$work"
mkdir -p "$work"
cd "$work"
# A name of its own: the signals go to $(pidof "$prog").
prog=rtmin-steered
if ! timeout 300 "$build/bin/popcorn-clang" -O2 "$src" -o $prog -lpthread 2>build.err; then
	echo "FAIL: popcorn-clang -O2 $src"
	cat build.err
	exit 1
fi

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# refused TEXT VAR=VALUE...: with these variables the program ends at
# start with status 2 and one line on stderr, which is TEXT.
refused() {
	text=$1
	shift
	status=0
	env "$@" ./$prog sum >refused.out 2>refused.err || status=$?
	if [ "$status" != 2 ] || [ "$(cat refused.err)" != "$text" ]; then
		fail "with $*: expected status 2 and '$text'; status $status, stderr:"
		cat refused.err
	else
		echo "ok: refused with $*: $text"
	fi
}

# A list replaces the default table: node 1 is not there.
POPCORN_NODES=0:x86_64:native,2:aarch64:qemu ./$prog nodes >nodes.out
printf '0 x86_64\n1 -\n2 aarch64\n' >nodes.expected
cmp -s nodes.expected nodes.out || { fail "POPCORN_NODES kept a default node:"; cat nodes.out; }
# An IPv6 address in brackets is the address: the move is refused, and
# the warning names ::1.
POPCORN_NODES='0:x86_64:native,1:x86_64:tcp:[::1]:1' ./$prog away >brackets.out 2>&1 || true
grep -qF "(x86_64 at ::1:1)" brackets.out ||
	fail "POPCORN_NODES with tcp:[::1]:1 did not try ::1: $(cat brackets.out)"

refused "popcorn: POPCORN_NODES: '1:aarch64:qemu': node 1 is listed twice" \
	"POPCORN_NODES=0:x86_64:native,1:x86_64:native,1:aarch64:qemu"
refused "popcorn: POPCORN_NODES: '1:sparc:qemu': ISA must be x86_64 or aarch64" \
	"POPCORN_NODES=0:x86_64:native,1:sparc:qemu,2:x86_64:native"
refused "popcorn: POPCORN_NODES: '1:aarch64:native': native runs this machine's ISA (x86_64) only; aarch64 needs qemu, tcp:HOST:PORT or ssh:[USER@]HOST" \
	"POPCORN_NODES=0:x86_64:native,1:aarch64:native"
refused "popcorn: POPCORN_NODES: '1:x86_64:ssh:-oProxyCommand=x': HOST may not begin with '-'" \
	"POPCORN_NODES=0:x86_64:native,1:x86_64:ssh:-oProxyCommand=x"
refused "popcorn: POPCORN_MIGRATE: 'seed=x': seed= needs a whole number, such as seed=7" \
	'POPCORN_MIGRATE=random=0.1;seed=x'
refused "popcorn: POPCORN_MIGRATE: 'every=5': every= is given twice" \
	'POPCORN_MIGRATE=every=3;every=5'
refused "popcorn: POPCORN_MIGRATE: 'speed=4': no such setting (every, random, after, period, at, seed, nodes or threads)" \
	'POPCORN_MIGRATE=every=3;nodes=1,2;speed=4'
refused "popcorn: POPCORN_MIGRATE: 'nodes=1': node 1 is not in POPCORN_NODES" \
	'POPCORN_MIGRATE=every=3;nodes=1' POPCORN_NODES=0:x86_64:native,2:x86_64:native
refused "popcorn: POPCORN_CHECK_UNWIND: runs alone, and POPCORN_MIGRATE is set ('every=1'); unset one of them" \
	POPCORN_CHECK_UNWIND=1 POPCORN_MIGRATE=every=1
# A word misspelt would be silently none of a setting's words.
refused "popcorn: POPCORN_LOG: 'stat' must be 'stats', 'verbose' or 'quiet'" POPCORN_LOG=stat
refused "popcorn: POPCORN_TRACK_WRITES: 'maybe' must be '0' or '1'" POPCORN_TRACK_WRITES=maybe
refused "popcorn: POPCORN_CHECK_UNWIND: '2' must be '1' or 'verbose'" POPCORN_CHECK_UNWIND=2
refused "popcorn: POPCORN_SELFTEST: 'bad' must be 'same' or 'roundtrip'" POPCORN_SELFTEST=bad
# The program never ran: no report of its migrations follows the refusal.
refused "popcorn: POPCORN_MIGRATE: 'speed=4': no such setting (every, random, after, period, at, seed, nodes or threads)" \
	'POPCORN_MIGRATE=every=3;speed=4' POPCORN_LOG=stats
refused "popcorn: POPCORN_NODES: '1:x86_64:qemu': qemu runs another ISA than this machine's; x86_64 runs native here" \
	POPCORN_NODES=0:x86_64:native,1:x86_64:qemu POPCORN_LOG=stats
# POPCORN_TIMEOUT: what its message offers (1ms to 1h) is taken, and no more.
refused "popcorn: POPCORN_TIMEOUT: '61m' is not a duration from 1ms to 1h such as 500ms, 10s or 5m" \
	POPCORN_TIMEOUT=61m
refused "popcorn: POPCORN_TIMEOUT: '0.5ms' is not a duration from 1ms to 1h such as 500ms, 10s or 5m" \
	POPCORN_TIMEOUT=0.5ms
for timeout in 1ms 59m 60m 1h; do
	POPCORN_TIMEOUT=$timeout POPCORN_NODES=0:x86_64:native ./$prog sum >timeout.out 2>timeout.err ||
		fail "POPCORN_TIMEOUT=$timeout refused: $(cat timeout.err)"
done

# What a run that stays home computes.
POPCORN_NODES=0:x86_64:native ./$prog sum >home.out 2>home.err

# Spaces between settings: nodes= is read, the thread goes to node 2.
POPCORN_MIGRATE='every=1; nodes=2' ./$prog sum >spaces.out 2>spaces.err ||
	fail "'every=1; nodes=2': status $?: $(cat spaces.err)"
if ! cmp -s home.out spaces.out || ! grep -qx "ended on node 2" spaces.err; then
	fail "'every=1; nodes=2' did not take the thread to node 2, or changed the output:"
	cat spaces.out spaces.err
else
	echo "ok: 'every=1; nodes=2' took the thread to node 2"
fi

# A node over IPv6, in brackets on both sides.
"$build/bin/popcorn-node" --new-key key >/dev/null
port=$((20000 + $$ % 20000))
"$build/bin/popcorn-node" --listen "[::1]:$port" --key key >node.out 2>&1 &
node=$!
sleep 1
if ! grep -q "listening on ::1:$port" node.out; then
	# Only a machine without IPv6's loopback excuses it.
	if python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null; then
		fail "popcorn-node cannot listen on [::1]:$port: $(cat node.out)"
	else
		echo "SKIP: no IPv6 loopback here: popcorn-node over [::1] not tried"
	fi
elif ! POPCORN_KEY_FILE=$PWD/key POPCORN_NODES="0:x86_64:native,1:x86_64:tcp:[::1]:$port" \
	POPCORN_MIGRATE='every=1;nodes=1' ./$prog sum >ipv6.out 2>ipv6.err ||
	! cmp -s home.out ipv6.out || ! grep -qx "ended on node 1" ipv6.err; then
	fail "over tcp:[::1]:$port: $(cat ipv6.out ipv6.err node.out)"
else
	echo "ok: the thread went to popcorn-node --listen [::1]:$port"
fi
kill "$node" 2>/dev/null || true

# The README's command, run through /bin/sh (whose SIGRTMIN is glibc's, 34),
# and then kill -s RTMIN while node 2's process runs too: pidof names it
# as well, and it must live on.
wait_for() { # LINE FILE: within 60 s
	i=0
	until grep -qx "$1" "$2"; do
		i=$((i + 1))
		[ $i -lt 600 ] && kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
}
POPCORN_MIGRATE=nodes=2 ./$prog signal >signal.out 2>signal.err &
pid=$!
if wait_for ready signal.out; then
	/bin/sh -c "kill -RTMIN \$(pidof $prog)"
	if wait_for home signal.out; then
		echo "signal: pidof $prog: $(pidof $prog)"
		kill -s RTMIN $(pidof $prog) || fail "kill -s RTMIN \$(pidof $prog)"
		# Away, a signal brings the thread home on its way to the
		# cycle's next node.
		wait_for "on node 2 again" signal.out && kill -s RTMIN "$pid"
	fi
fi
status=0
wait "$pid" || status=$?
printf 'ready\non node 2\nhome\non node 2 again\nhome again\n' | cat - home.out >signal.expected
if [ "$status" != 0 ] || ! cmp -s signal.expected signal.out; then
	fail "kill -RTMIN: status $status, output:"
	cat signal.out signal.err
else
	echo "ok: kill -RTMIN and kill -s RTMIN moved the thread, the output is the home run's"
fi
exit $failed
