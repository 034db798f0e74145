# Shared by the end-to-end test scripts: run a program and compare runs.
# Source it.

# fail WHAT: says WHAT failed; the script goes on, and ends with status
# $failed (1 once anything failed).
failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# run NAME COMMAND...: stdout, stderr and the exit status of one run, in
# NAME.run for diff (and NAME.stdout, NAME.stderr).  Standard input is the
# file $stdin if set, else empty; the run may take $run_timeout seconds
# (default 60).
run() {
	name=$1
	shift
	set +e
	timeout "${run_timeout:-60}" "$@" <"${stdin:-/dev/null}" >"$name.stdout" 2>"$name.stderr"
	status=$?
	set -e
	{
		echo "=== stdout"
		cat "$name.stdout"
		echo "=== stderr"
		cat "$name.stderr"
		echo "=== exit status $status"
	} >"$name.run"
}

# same_as_baseline WHAT [RUN...]: 0 if each RUN.run (default: x86_64 and
# aarch64) equals baseline.run, else prints the differences.
same_as_baseline() {
	what=$1
	shift
	[ $# -gt 0 ] || set -- x86_64 aarch64
	same=0
	for isa in "$@"; do
		if ! cmp -s baseline.run "$isa.run"; then
			echo "FAIL: $what on $isa differs from the baseline:"
			diff -u baseline.run "$isa.run" || true
			same=1
		fi
	done
	return $same
}

# take_report NAME PREFIX: moves the runtime's line starting with PREFIX
# out of NAME's stderr and NAME.run (so the run compares with the
# baseline), logs it to selftest.log and sets $report to it.
take_report() {
	report=$(grep "^$2" "$1.stderr" || true)
	grep -v "^$2" "$1.stderr" >"$1.stderr.program" || true
	mv "$1.stderr.program" "$1.stderr"
	sed -i "/^=== stderr\$/,/^=== exit status/{/^$2/d}" "$1.run"
	echo "$1: ${report:-no report}" >>selftest.log
}

# at_least NAME COUNT MIN WHAT: fails, saying so, if the report gave no
# COUNT, more than one (two reports: a forked child's too) or COUNT < MIN.
at_least() {
	if [ -z "$2" ]; then
		echo "FAIL: $1 printed no report"
		return 1
	fi
	case $2 in
	*[!0-9]*)
		echo "FAIL: $1: not one count: '$(echo "$2" | tr '\n' ' ')' ($report)"
		return 1
		;;
	esac
	if [ "$2" -lt "$3" ]; then
		echo "FAIL: $1: $4 ($report)"
		return 1
	fi
	return 0
}

# run_selftest NAME MODE EVERY MIN COMMAND...: run with the in-process stack
# rewrite (POPCORN_SELFTEST=MODE, every EVERY-th migration point).  Fails if
# the report is missing, or if fewer than MIN rewrites were resumed (a run
# that skipped every rewrite proves nothing).
run_selftest() {
	name=$1 mode=$2 every=$3 min=$4
	shift 4
	run "$name" env POPCORN_SELFTEST="$mode" POPCORN_MIGRATE="every=$every" "$@"
	take_report "$name" "popcorn: selftest $mode: "
	rewrites=$(echo "$report" | sed -n 's/^popcorn: selftest [a-z]*: \([0-9]*\) rewrites.*/\1/p')
	at_least "$name" "$rewrites" "$min" "no rewrite was resumed"
}

# run_check_unwind NAME COMMAND...: run with the unwinding self-check
# (POPCORN_CHECK_UNWIND=verbose: every migration point walks the whole
# stack with the metadata alone).  Fails if the report is missing or counts
# no walk: a run whose points never fired checked nothing.
run_check_unwind() {
	name=$1
	shift
	run "$name" env POPCORN_CHECK_UNWIND=verbose "$@"
	take_report "$name" "popcorn: POPCORN_CHECK_UNWIND: "
	walks=$(echo "$report" | sed -n 's/^popcorn: POPCORN_CHECK_UNWIND: \([0-9]*\) stack walks.*/\1/p')
	at_least "$name" "$walks" 1 "no stack was walked"
}

# run_migrate NAME SCHEDULE MIN COMMAND...: run with the thread moving
# between nodes on POPCORN_MIGRATE=SCHEDULE.  Fails if fewer than MIN
# migrations went to each node the schedule's nodes= list names (home, 0,
# aside), or fewer than MIN in all without one: a schedule that never
# reaches a node proves nothing about it.
run_migrate() {
	name=$1 schedule=$2 min=$3
	shift 3
	run "$name" env POPCORN_LOG=stats POPCORN_MIGRATE="$schedule" "$@"
	take_report "$name" "popcorn: migrations: "
	moves=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	at_least "$name" "$moves" "$min" "the thread never left home" || return 1
	for node in $(schedule_nodes "$schedule"); do
		at_least "$name" "$(moves_to "$node")" "$min" "fewer than $min moves to node $node" ||
			return 1
	done
}

# schedule_nodes SCHEDULE: the nodes other than home that SCHEDULE's
# nodes= list names, one each.
schedule_nodes() {
	echo "$1" | tr ';' '\n' | sed -n 's/^nodes=//p' | tr ',' '\n' | grep -vx 0 | sort -u
}

# moves_to NODE: the moves to NODE that $report counts ("(3 to node 1,
# 4 to node 2)"; none listed: 0), or nothing if $report is not a report.
moves_to() {
	case $report in
	"popcorn: migrations: "*)
		n=$(echo "$report" | sed -n 's/^[^(,]* away from home (\([^)]*\)).*/\1/p' |
			tr ',' '\n' | sed -n "s/^ *\([0-9]*\) to node $1\$/\1/p")
		echo "${n:-0}"
		;;
	esac
}

# wait_until SECONDS COMMAND...: 0 once COMMAND succeeds, 1 if it has not
# within SECONDS.
wait_until() {
	deadline=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}

# child_of PID: a child process of PID, or nothing (from /proc: a fresh
# machine may have no pgrep; a stat line's fields after the command's
# closing parenthesis are the state, then the parent).
child_of() {
	for stat in /proc/[0-9]*/stat; do
		parent=$(sed 's/.*) //' "$stat" 2>/dev/null | cut -d' ' -f2)
		if [ "$parent" = "$1" ]; then
			child=${stat#/proc/}
			echo "${child%/stat}"
			return
		fi
	done
}

# ended PID: PID is gone or a zombie, whose descriptors are closed (a
# process's memory goes before them: an empty command line is too soon).
ended() {
	state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -z "$state" ] || [ "$state" = Z ]
}

# enter_work_dir DIR: DIR, emptied, is the current directory, and $work
# its absolute path.
enter_work_dir() {
	rm -rf "$1"
	mkdir -p "$1"
	cd "$1"
	work=$(pwd)
}
