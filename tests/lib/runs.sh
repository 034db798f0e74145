# Shared by the end-to-end test scripts: run a program and compare runs.
# Source it; it defines two functions.

# run NAME COMMAND...: stdout, stderr and the exit status of one run, in
# NAME.run for diff (and NAME.stdout, NAME.stderr).
run() {
	name=$1
	shift
	set +e
	timeout 60 "$@" </dev/null >"$name.stdout" 2>"$name.stderr"
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

# run_selftest NAME MODE EVERY MIN COMMAND...: run with the in-process stack
# rewrite (POPCORN_SELFTEST=MODE, every EVERY-th migration point), then take
# the runtime's report line out of NAME.run, so the run compares with the
# baseline.  Fails if the report is missing, or if fewer than MIN rewrites
# were resumed (a run that skipped every rewrite proves nothing).
run_selftest() {
	name=$1 mode=$2 every=$3 min=$4
	shift 4
	run "$name" env POPCORN_SELFTEST="$mode" POPCORN_MIGRATE="every=$every" "$@"
	report=$(grep "^popcorn: selftest $mode: " "$name.stderr" || true)
	grep -v "^popcorn: selftest $mode: " "$name.stderr" >"$name.stderr.program" || true
	mv "$name.stderr.program" "$name.stderr"
	sed -i '/^=== stderr$/,/^=== exit status/{/^popcorn: selftest /d}' "$name.run"
	rewrites=$(echo "$report" | sed -n 's/^popcorn: selftest [a-z]*: \([0-9]*\) rewrites.*/\1/p')
	echo "$name: ${report:-no report}" >>selftest.log
	if [ -z "$rewrites" ]; then
		echo "FAIL: $name printed no selftest report"
		return 1
	fi
	if [ "$rewrites" -lt "$min" ]; then
		echo "FAIL: $name: no rewrite was resumed ($report)"
		return 1
	fi
	return 0
}

# run_migrate NAME EVERY MIN COMMAND...: run with the thread moving to
# node 1 and back at every EVERY-th migration point (POPCORN_MIGRATE), then
# take the runtime's report line out of NAME.run, so the run compares with
# the baseline.  Fails if fewer than MIN migrations happened.
run_migrate() {
	name=$1 every=$2 min=$3
	shift 3
	run "$name" env POPCORN_LOG=stats POPCORN_MIGRATE="every=$every;nodes=1,0" "$@"
	report=$(grep "^popcorn: migrations: " "$name.stderr" || true)
	grep -v "^popcorn: migrations: " "$name.stderr" >"$name.stderr.program" || true
	mv "$name.stderr.program" "$name.stderr"
	sed -i '/^=== stderr$/,/^=== exit status/{/^popcorn: migrations: /d}' "$name.run"
	moves=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	echo "$name: ${report:-no report}" >>selftest.log
	if [ -z "$moves" ]; then
		echo "FAIL: $name printed no migration report"
		return 1
	fi
	if [ "$moves" -lt "$min" ]; then
		echo "FAIL: $name: the thread never left home ($report)"
		return 1
	fi
	return 0
}
