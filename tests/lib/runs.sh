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
