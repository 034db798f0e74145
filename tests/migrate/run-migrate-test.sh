#!/bin/sh
# Build one program that moves its thread between nodes, run it with the
# thread staying home (POPCORN_NODES with node 0 alone: every move is
# refused) and migrating, and check that the migrating runs print the same
# stdout and end with the same status.  stderr is the runtime's and the
# program's node trail; only the migration count is read from it.
#
#   run-migrate-test.sh BUILD_DIR SOURCE WORK_DIR
#
# Lines of SOURCE:
#   // MIGRATE-MIN: N      each migrating run moves the thread at least N times
#   // MIGRATE-FETCHES-BELOW: N
#                          each migrating run fetches fewer than N pages, where
#                          the kernel tells home which pages it wrote (a run
#                          whose home hashes them says so in its report, and
#                          is not checked)
#   // MIGRATE-REQUESTS-BELOW: N
#                          each migrating run asks home for pages fewer than
#                          N times
#   // MIGRATE-ENV: A=B .. one migrating run with these variables (one line,
#                          one run; none: one run without); {start:F} and
#                          {end:F} become function F's code range, in hex
#   // MIGRATE-UNDER: CMD   one more migrating run as CMD ./prog (setarch -R:
#                          address randomization off, as under gdb); if CMD
#                          cannot run here, the test ends skipped (status
#                          77) after its other runs pass
#   // MIGRATE-ERROR: A=B .. => TEXT
#                          a run with these variables is refused at start:
#                          exit status 2 and TEXT on stderr
#   // STDIN: TEXT         standard input of every run (printf %b escapes)
#   // EXIT: N             the expected exit status (default 0)
#   // POPCORN-FLAGS: ...  popcorn-clang options
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
build=$(cd "$1" && pwd) src=$2 work=$3
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
enter_work_dir "$work"

setting() { sed -n "s,^// $1: *,,p" "$src"; }
min=$(setting MIGRATE-MIN)
fetches_below=$(setting MIGRATE-FETCHES-BELOW)
requests_below=$(setting MIGRATE-REQUESTS-BELOW)
expected_status=$(setting EXIT)
if [ -n "$(setting STDIN)" ]; then
	printf '%b' "$(setting STDIN)" >input
	stdin=input
fi

if ! timeout 300 "$build/bin/popcorn-clang" -O2 $(setting POPCORN-FLAGS) "$src" -o prog 2>build.err; then
	echo "FAIL: popcorn-clang -O2 $src"
	cat build.err
	exit 1
fi

# {start:F} {end:F}: F's range in the x86-64 image, from its symbol table.
expand() {
	text=$1
	while f=$(echo "$text" | sed -n 's/.*{\(start\|end\):\([A-Za-z_0-9]*\)}.*/\2/p') && [ -n "$f" ]; do
		set -- $(nm -S prog | awk -v f="$f" '$4 == f && ($3 == "T" || $3 == "t") { print $1, $2; exit }')
		start=$(printf '%x' "0x$1") end=$(printf '%x' $((0x$1 + 0x$2)))
		text=$(echo "$text" | sed "s/{start:$f}/$start/g; s/{end:$f}/$end/g")
	done
	echo "$text"
}

run home env POPCORN_NODES=0:x86_64:native ./prog
status=$(sed -n 's/^=== exit status //p' home.run)
if [ "$status" != "${expected_status:-0}" ]; then
	echo "FAIL: staying home, the program exits with $status, not ${expected_status:-0}"
	cat home.run
	exit 1
fi
sed '/^=== stderr$/,/^=== exit status/{/^=== exit status/!d}' home.run >home.compare

setting MIGRATE-ENV >envs
[ -s envs ] || echo "" >envs
setting MIGRATE-UNDER | sed 's/^/UNDER /' >>envs
failed=0
skipped=
i=0
while IFS= read -r vars; do
	i=$((i + 1))
	under=
	case $vars in UNDER\ *) under=${vars#UNDER } vars= ;; esac
	vars=$(expand "$vars")
	if [ -n "$under" ] && ! $under true 2>/dev/null; then
		echo "SKIP: '$under' cannot run here (a container's seccomp?)"
		skipped=yes
		continue
	fi
	run "moved$i" $under env POPCORN_LOG=stats $vars ./prog
	take_report "moved$i" "popcorn: migrations: "
	moves=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	fetched=$(echo "$report" | sed -n 's/.* \([0-9]*\) pages fetched.*/\1/p')
	requests=$(echo "$report" | sed -n 's/.* fetched in \([0-9]*\) requests.*/\1/p')
	sed '/^=== stderr$/,/^=== exit status/{/^=== exit status/!d}' "moved$i.run" >"moved$i.compare"
	if ! cmp -s home.compare "moved$i.compare"; then
		echo "FAIL: with ${under:-${vars:-no trigger}}, the migrating run differs from the one staying home:"
		diff -u home.compare "moved$i.compare" || true
		echo "its stderr:"
		cat "moved$i.stderr"
		failed=1
	elif ! at_least "${vars:-moved}" "$moves" "${min:-1}" "fewer than ${min:-1} migrations"; then
		cat "moved$i.stderr"
		failed=1
	elif [ -n "$fetches_below" ] && [ -z "$fetched" ]; then
		echo "FAIL: with ${under:-${vars:-no trigger}}, no count of pages fetched in the report: $report"
		failed=1
	elif [ -n "$fetches_below" ] && ! echo "$report" | grep -q 'checked by hashing' &&
		! [ "$fetched" -lt "$fetches_below" ]; then
		echo "FAIL: with ${under:-${vars:-no trigger}}, $fetched pages fetched, not fewer than $fetches_below"
		cat "moved$i.stderr"
		failed=1
	elif [ -n "$requests_below" ] && ! [ "${requests:-$requests_below}" -lt "$requests_below" ]; then
		echo "FAIL: with ${under:-${vars:-no trigger}}, ${requests:-an unknown number of} requests for pages, not fewer than $requests_below"
		cat "moved$i.stderr"
		failed=1
	else
		echo "ok: ${under:-${vars:-no trigger}}: $report"
	fi
done <envs

setting MIGRATE-ERROR >errors
while IFS= read -r line; do
	vars=${line%% => *} text=${line#* => }
	status=0
	env $vars ./prog >refused.out 2>refused.err || status=$?
	if [ "$status" != 2 ] || ! grep -qF -- "$text" refused.err; then
		echo "FAIL: with $vars, expected exit status 2 and '$text'; status $status, stderr:"
		cat refused.err
		failed=1
	else
		echo "ok: $vars refused: $(head -n 1 refused.err)"
	fi
done <errors
[ $failed -eq 0 ] && [ -n "$skipped" ] && exit 77
exit $failed
