#!/bin/sh
# Nodes started where users run them (CASE):
#
#   run-remote-test.sh BUILD_DIR CASE WORK_DIR
#
#   ssh-roundtrip   tests/migrate/roundtrips.c with its nodes started by
#                   ssh:127.0.0.1 through an sshd of the test's own (aarch64
#                   under qemu, x86-64 native): the same output as a run
#                   that stays home, and 200 moves
#   batch-launcher  the same through POPCORN_SSH='fake-srun -u -N1 -n1 -w', a
#                   script that runs the command here as srun would there
#   ssh-errors      a host where no sshd listens, popcorn-node missing on
#                   the host, another key there, no launcher in PATH, a
#                   blank POPCORN_SSH or POPCORN_NODE_COMMAND, a long
#                   USER@HOST with a long error: each is one
#                   line naming the node and the reason (the launcher's
#                   own, if it ran), and the program completes at home
#   ctl-tcp         popcorn-ctl moves a thread home -> node 1 -> node 2 ->
#                   home, nodes 1 (x86-64) and 2 (aarch64, under qemu)
#                   behind popcorn-node: the moves from nodes 1 and 2 are
#                   relayed over their links to a thread that computes
#                   without a word to home (quiet-loop.c); ps shows where
#                   it is, and it prints what a run at home prints
#   ctl-ssh         the same with ssh: nodes
#   ssh-ended       the ssh client of an ssh: node killed while the thread
#                   is home: popcorn-ctl nodes shows the node gone, and
#                   the next move there starts it again (tests/faults/
#                   revisit.c: the work is what a run at home prints)
#   ssh-aborts      abort() on an ssh: node (tests/faults/abort-away.c):
#                   home ends by SIGABRT, as a run at home does
#   tcp-paging      bench/migration.c on a tcp: node: 300 round trips and
#                   their pages, in runs and one by one, while the link
#                   can signal home's news; the checksum of a run whose
#                   node is a local process
#
# The sshd listens on 127.0.0.1 on a free port, with its own host key and
# authorized_keys in WORK_DIR; it runs as the user running the test
# (root in CI), and scripts/install-deps.sh installs it.
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
	for f in *.out *.err *.log; do
		[ -s "$f" ] && { echo "--- $f"; tail -20 "$f"; }
	done
	exit 1
}
sshd_pid= node_pid= pid=
cleanup() {
	for p in $pid $node_pid $sshd_pid; do
		kill "$p" 2>/dev/null || true
	done
}
trap cleanup EXIT

compile() { # SOURCE OUTPUT
	timeout 300 "$build/bin/popcorn-clang" -O2 -I "$tests/../include" "$1" -o "$2" 2>build.err ||
		fail "popcorn-clang $1"
}

# An sshd on 127.0.0.1 that lets this user in with the test's client key;
# its port in $ssh_port, and in $ssh the client command for it.
start_sshd() {
	sshd=/usr/sbin/sshd
	[ -x "$sshd" ] || fail "$sshd is missing (scripts/install-deps.sh installs openssh-server)"
	rm -f host_key host_key.pub client_key client_key.pub
	ssh-keygen -q -t ed25519 -N '' -f host_key
	ssh-keygen -q -t ed25519 -N '' -f client_key
	cp client_key.pub authorized_keys
	# Privilege separation needs this directory, which the service
	# creates at boot on an installed system.
	[ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd
	tries=0
	while [ $tries -lt 20 ]; do
		tries=$((tries + 1))
		ssh_port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
		cat >sshd_config <<-EOF
			ListenAddress 127.0.0.1:$ssh_port
			HostKey $work/host_key
			AuthorizedKeysFile $work/authorized_keys
			PidFile none
			StrictModes no
			UsePAM no
			PasswordAuthentication no
			KbdInteractiveAuthentication no
			PermitRootLogin prohibit-password
		EOF
		: >sshd.log
		"$sshd" -D -e -f "$work/sshd_config" 2>>sshd.log &
		sshd_pid=$!
		# Listening, or gone (the port was taken): within 10 s.
		waited=0
		while [ $waited -lt 100 ] && kill -0 "$sshd_pid" 2>/dev/null &&
			! grep -q "Server listening" sshd.log; do
			sleep 0.1
			waited=$((waited + 1))
		done
		if grep -q "Server listening" sshd.log; then
			ssh="ssh -p $ssh_port -i $work/client_key -o StrictHostKeyChecking=no"
			ssh="$ssh -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
			$ssh 127.0.0.1 true 2>ssh.err || fail "ssh to the test's sshd fails: $(cat ssh.err)"
			return
		fi
		kill "$sshd_pid" 2>/dev/null || true
		sshd_pid=
	done
	fail "sshd did not start on 127.0.0.1 in 20 tries"
}

# through_sshd: both nodes logged in through the test's sshd (its probe
# is the first login): nodes started here, ssh: ignored, would move and
# print alike.
through_sshd() {
	[ "$(grep -c 'Accepted publickey' sshd.log)" -ge 3 ] ||
		fail "the nodes did not log in through the test's sshd: $(grep -c 'Accepted publickey' sshd.log) logins"
}

# The program and its output at home.
prepare_roundtrips() {
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	compile "$tests/migrate/roundtrips.c" prog
	POPCORN_NODES=0:x86_64:native timeout 120 ./prog >home.out 2>home.err ||
		fail "the run that stays home failed"
}

# expect_moves NAME: NAME.out is home.out, and the thread went to both
# nodes 100 times.
expect_moves() {
	cmp -s home.out "$1.out" || fail "the run over $1 prints other output than the run at home"
	[ "$1" != ssh ] || through_sshd
	grep -q "away from home (100 to node 1, 100 to node 2)" "$1.err" ||
		fail "the thread did not move 100 times to each node over $1"
	echo "ok: 200 moves over $1, output identical"
}

node_command="$build/bin/popcorn-node --key $work/node.key"

# A popcorn-node on 127.0.0.1, on a port the kernel chooses: $node_port.
start_node() {
	"$build/bin/popcorn-node" --listen 127.0.0.1:0 --key "$POPCORN_KEY_FILE" >node.out 2>node.err &
	node_pid=$!
	wait_until 10 grep -q "listening on" node.out || fail "popcorn-node did not start"
	node_port=$(sed -n 's/^popcorn-node: listening on .*:\([0-9]*\)$/\1/p' node.out)
}

# at NODE WHERE: popcorn-ctl ps shows the thread of $pid on NODE, at WHERE.
at() {
	timeout 30 "$build/bin/popcorn-ctl" ps >ps.out 2>ps.err || return 1
	[ "$(awk -v pid="$pid" '$1 == pid { print $3 " " $7 }' ps.out)" = "$1 $2" ]
}

# settled NODE WHERE: at NODE WHERE, and done fetching its pages there
# (the count ps shows is the same 0.3 s apart): from then on it says
# nothing to home, and a move reaches it by its link's signal alone.
settled() {
	at "$1" "$2" || return 1
	before=$(awk -v pid="$pid" '$1 == pid { print $6 }' ps.out)
	sleep 0.3
	at "$1" "$2" && [ "$(awk -v pid="$pid" '$1 == pid { print $6 }' ps.out)" = "$before" ]
}

# steer NODES WHERE1 WHERE2: tests/remote/quiet-loop.c under NODES (1 an
# x86-64 node at WHERE1, 2 an aarch64 one at WHERE2), moved by popcorn-ctl
# from home to 1 and 2, each seen by ps, and home; the moves from 1 and 2
# reach a thread that says nothing to home meanwhile.  Its output is a
# run's at home.
steer() {
	nodes=$1 where1=$2 where2=$3
	compile "$tests/remote/quiet-loop.c" quiet-loop
	export XDG_RUNTIME_DIR="$work/run"
	mkdir -m 700 "$XDG_RUNTIME_DIR"
	POPCORN_NODES=0:x86_64:native timeout 120 ./quiet-loop >home.out 2>home.err ||
		fail "the run that stays home failed"
	POPCORN_NODES=$nodes ./quiet-loop 1 2 0 >steered.out 2>steered.err &
	pid=$!
	wait_until 30 grep -q "started" steered.err || fail "the steered run did not start"
	for move in "1 $where1" "2 $where2" "0"; do
		set -- $move
		timeout 30 "$build/bin/popcorn-ctl" migrate "$pid" "$1" >migrate.out 2>&1 ||
			fail "popcorn-ctl migrate $pid $1: $(cat migrate.out)"
		# From node 1 and node 2 the move goes over the node's link.
		[ "$1" = 1 ] || grep -q "over its link" migrate.out ||
			fail "popcorn-ctl did not relay the move to node $1 over the link: $(cat migrate.out)"
		echo "ok: migrate $pid $1: $(cat migrate.out)"
		[ "$1" -ne 0 ] || break # it ends as soon as it is home
		wait_until 60 settled "$1" "$2" ||
			fail "ps does not show the thread settled on node $1 at $2 within 60 s: $(cat ps.out)"
		echo "ok: ps: $(grep "^$pid " ps.out)"
	done
	wait_until 70 sh -c "! kill -0 $pid 2>/dev/null" || fail "the steered run did not end"
	wait "$pid" || fail "the steered run exits with $?"
	pid=
	cmp -s home.out steered.out || fail "the steered run prints other output than the run at home"
	case $nodes in *ssh:*) through_sshd ;; esac
	echo "ok: the steered run prints what the run at home prints"
}

case $case in
ssh-roundtrip)
	start_sshd
	prepare_roundtrips
	POPCORN_SSH=$ssh POPCORN_NODE_COMMAND=$node_command \
		POPCORN_NODES=0:x86_64:native,1:aarch64:ssh:127.0.0.1,2:x86_64:ssh:$(id -un)@127.0.0.1 \
		POPCORN_LOG=stats timeout 120 ./prog >ssh.out 2>ssh.err || fail "the run over ssh failed"
	expect_moves ssh
	;;
batch-launcher)
	prepare_roundtrips
	cat >fake-srun <<-'EOF'
		#!/bin/sh
		# srun's options for one task on one host, then the command, run here.
		while [ $# -gt 0 ]; do
			case $1 in
			-u) shift ;;
			-N | -n) shift 2 ;;
			-N* | -n*) shift ;;
			-w) host=$2; shift 2 ;;
			-*) echo "fake-srun: unknown option $1" >&2; exit 2 ;;
			*) break ;;
			esac
		done
		[ -n "${host:-}" ] || { echo "fake-srun: no -w HOST" >&2; exit 2; }
		echo "$host $*" >>"${0%/*}/fake-srun.log"
		exec "$@"
	EOF
	chmod +x fake-srun
	POPCORN_SSH="$work/fake-srun -u -N1 -n1 -w" POPCORN_NODE_COMMAND=$node_command \
		POPCORN_NODES=0:x86_64:native,1:aarch64:ssh:compute-7,2:x86_64:ssh:compute-8 \
		POPCORN_LOG=stats timeout 120 ./prog >srun.out 2>srun.err ||
		fail "the run through the batch launcher failed"
	expect_moves srun
	grep -qx "compute-7 $node_command --stdio" fake-srun.log &&
		grep -qx "compute-8 $node_command --stdio" fake-srun.log ||
		fail "the launcher was not asked for each node's host: $(cat fake-srun.log)"
	echo "ok: the launcher started popcorn-node --stdio for compute-7 and compute-8"
	;;
ssh-errors)
	start_sshd
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	"$build/bin/popcorn-node" --new-key other.key >/dev/null
	compile "$tests/faults/worker.c" worker
	POPCORN_NODES=0:x86_64:native timeout 60 ./worker 0 64 3 >home.out 2>home.err ||
		fail "the run that stays home failed"
	# A port the sshd listened on, closed now: no host answers there.
	closed_port=$ssh_port
	kill "$sshd_pid"
	wait "$sshd_pid" 2>/dev/null || true
	start_sshd
	nodes=0:x86_64:native,1:x86_64:ssh:127.0.0.1
	name="node 1 (x86_64 at ssh:127.0.0.1)"
	# refused NAME REASON [VAR=VALUE...]: the program completes at home,
	# with one line naming the node and REASON.
	refused() {
		what=$1 reason=$2
		shift 2
		env "$@" POPCORN_NODES=$nodes timeout 60 ./worker 1 64 3 >"$what.out" 2>"$what.err" ||
			fail "$what: the program did not complete at home"
		cmp -s home.out "$what.out" || fail "$what: other output than the run at home"
		[ "$(grep -c '^popcorn:' "$what.err")" -eq 1 ] || fail "$what: more than one line of popcorn's"
		grep -q "^popcorn: cannot start $name: .*$reason.*; the thread stays home$" "$what.err" ||
			fail "$what: no line naming the node and '$reason'"
		echo "ok: $what: $(grep '^popcorn:' "$what.err")"
	}
	refused wrong-host "ssh exited with status 255: ssh: connect to host 127.0.0.1 port $closed_port: Connection refused" \
		POPCORN_SSH="$(echo "$ssh" | sed "s/-p $ssh_port/-p $closed_port/")" \
		POPCORN_NODE_COMMAND="$node_command"
	refused node-missing "ssh exited with status 127: .*$work/missing/popcorn-node.*" \
		POPCORN_SSH="$ssh" POPCORN_NODE_COMMAND="$work/missing/popcorn-node --key $work/node.key"
	refused wrong-key "it failed authentication (another key file than this one?); ssh exited with status 1" \
		POPCORN_SSH="$ssh" POPCORN_NODE_COMMAND="$build/bin/popcorn-node --key $work/other.key"
	refused no-launcher "no-such-ssh is not installed (not in PATH" \
		POPCORN_SSH="no-such-ssh -p $ssh_port" POPCORN_NODE_COMMAND="$node_command"
	refused blank-launcher "POPCORN_SSH names no command" \
		POPCORN_SSH=" " POPCORN_NODE_COMMAND="$node_command"
	refused blank-node-command "POPCORN_NODE_COMMAND names no command" \
		POPCORN_SSH="$ssh" POPCORN_NODE_COMMAND=" "
	# A long USER@HOST (ssh reaches the host at 127.0.0.1) and a long
	# error from the node's host: a line of about 300 characters keeps the
	# whole reason and its end.
	long_host=$(id -un)@node-0042.rack17.dc-west.hpc.example-univ.invalid
	missing=missing/a-directory-whose-name-is-long-enough-for-this/popcorn-node
	nodes=0:x86_64:native,1:x86_64:ssh:$long_host
	name="node 1 (x86_64 at ssh:$long_host)"
	refused long-host "ssh exited with status 127: .*$missing" \
		POPCORN_SSH="$ssh -o HostName=127.0.0.1" POPCORN_NODE_COMMAND="$missing"
	;;
ctl-tcp)
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_node
	steer "0:x86_64:native,1:x86_64:tcp:127.0.0.1:$node_port,2:aarch64:tcp:127.0.0.1:$node_port" \
		"tcp:127.0.0.1:$node_port" "tcp:127.0.0.1:$node_port"
	;;
ctl-ssh)
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_sshd
	export POPCORN_SSH="$ssh" POPCORN_NODE_COMMAND="$node_command"
	steer "0:x86_64:native,1:x86_64:ssh:127.0.0.1,2:aarch64:ssh:$(id -un)@127.0.0.1" \
		"ssh:127.0.0.1" "ssh:$(id -un)@127.0.0.1"
	;;
ssh-ended)
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_sshd
	compile "$tests/faults/revisit.c" revisit
	touch go
	POPCORN_NODES=0:x86_64:native timeout 60 ./revisit 1 go >home.out 2>home.err ||
		fail "the run that stays home failed"
	rm go
	POPCORN_SSH=$ssh POPCORN_NODE_COMMAND=$node_command \
		POPCORN_NODES=0:x86_64:native,1:aarch64:ssh:127.0.0.1 ./revisit 1 go >run.out 2>run.err &
	pid=$!
	wait_until 60 grep -q "home again" run.err || fail "the thread never came home from node 1"
	grep -q "trip 1 on node 1$" run.err || fail "the first trip did not reach node 1"
	client=$(child_of "$pid")
	[ -n "$client" ] || fail "no ssh client under home $pid"
	kill -9 "$client"
	wait_until 10 ended "$client" || fail "ssh client $client still runs after kill -9"
	timeout 30 "$build/bin/popcorn-ctl" nodes "$pid" >nodes.out 2>&1 || fail "popcorn-ctl nodes failed"
	grep -q "^1 .*started, gone" nodes.out ||
		fail "popcorn-ctl nodes does not show node 1 gone: $(grep '^1 ' nodes.out)"
	touch go
	wait "$pid" || fail "the program ended with status $?"
	pid=
	grep -q "^popcorn: node 1 (aarch64 at ssh:127.0.0.1) ended while the thread was home (its ssh was killed by signal 9); it starts again$" \
		run.err || fail "no line saying the node ended while the thread was home"
	grep -q "trip 2 on node 1$" run.err || fail "the second trip did not reach node 1"
	cmp -s home.out run.out || fail "the work differs from a run at home"
	echo "ok: $(grep 'ended while' run.err)"
	;;
ssh-aborts)
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_sshd
	compile "$tests/faults/abort-away.c" abort-away
	home_status=0
	POPCORN_NODES=0:x86_64:native timeout 60 ./abort-away 1 >home.out 2>home.err ||
		home_status=$?
	[ "$home_status" -gt 128 ] || fail "the run at home did not abort: status $home_status"
	status=0
	POPCORN_SSH=$ssh POPCORN_NODE_COMMAND=$node_command \
		POPCORN_NODES=0:x86_64:native,1:aarch64:ssh:127.0.0.1 timeout 60 ./abort-away 1 \
		>run.out 2>run.err || status=$?
	grep -q "aborts on node 1" run.err || fail "the thread did not reach node 1"
	[ "$status" = "$home_status" ] || fail "status $status, the run at home's $home_status"
	grep -q "^popcorn: node 1 (aarch64 at ssh:127.0.0.1) ended while the thread was there: killed by signal 6$" \
		run.err || fail "no line saying node 1 was killed by signal 6"
	echo "ok: status $status, $(grep '^popcorn:' run.err)"
	;;
tcp-paging)
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_node
	compile "$tests/../bench/migration.c" migration
	POPCORN_NODES=0:x86_64:native,1:x86_64:native POPCORN_LOG=stats timeout 120 \
		./migration 1 300 256 >local.out 2>local.err || fail "the run with a local node failed"
	POPCORN_NODES=0:x86_64:native,1:x86_64:tcp:127.0.0.1:$node_port POPCORN_LOG=stats \
		timeout 120 ./migration 1 300 256 >tcp.out 2>tcp.err || fail "the run over tcp failed"
	# The checksum is the same wherever the reads run: the moves and the
	# pages fetched say they ran on the node, as many as with a local one.
	local_moves=$(sed -n 's/^popcorn: migrations: \([0-9]*\) away from home.*/\1/p' local.err)
	tcp_moves=$(sed -n 's/^popcorn: migrations: \([0-9]*\) away from home.*/\1/p' tcp.err)
	tcp_pages=$(sed -n 's/^popcorn: migrations: .*, \([0-9]*\) pages fetched.*/\1/p' tcp.err)
	[ "${local_moves:-0}" -ge 300 ] && [ "${tcp_moves:-0}" = "$local_moves" ] ||
		fail "moves over tcp: ${tcp_moves:-none}, with a local node: ${local_moves:-none} (at least 300)"
	[ "${tcp_pages:-0}" -gt 0 ] || fail "the node over tcp fetched no page"
	grep '^(checksum' local.out >local.sum && grep '^(checksum' tcp.out >tcp.sum ||
		fail "no checksum"
	cmp -s local.sum tcp.sum || fail "other checksum over tcp: $(cat tcp.sum), not $(cat local.sum)"
	echo "ok: bench/migration.c over tcp: $(cat tcp.sum), as with a local node"
	;;
tcp-threads)
	# A thread on a tcp: node that waits in a loop for another thread
	# (an atomic flag, a spin lock) is asked over its link to let the
	# others run, and sees them done.
	"$build/bin/popcorn-node" --new-key "$POPCORN_KEY_FILE" >/dev/null
	start_node
	compile "$tests/migrate/thread-spin.c" spin
	POPCORN_NODES=0:x86_64:native timeout 120 ./spin >home.out 2>home.err ||
		fail "the run at home failed: $(cat home.err)"
	POPCORN_NODES=0:x86_64:native,1:x86_64:tcp:127.0.0.1:$node_port,2:x86_64:native \
		POPCORN_LOG=stats timeout 120 ./spin >tcp.out 2>tcp.err ||
		fail "the run with a tcp: node failed or hung: status $?: $(cat tcp.err)"
	cmp -s home.out tcp.out || fail "the run with a tcp: node printed otherwise: $(cat tcp.out)"
	grep -q '^popcorn: migrations: [1-9][0-9]* away from home (.*1 to node 1' tcp.err ||
		fail "the thread did not go to the tcp: node: $(cat tcp.err)"
	echo "ok: a thread on a tcp: node waiting for another in a loop sees it done"
	;;
*)
	echo "run-remote-test.sh: unknown case '$case'" >&2
	exit 2
	;;
esac
