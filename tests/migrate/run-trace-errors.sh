#!/bin/sh
# popcorn-inspect trace on malformed trace files: each must fail (non-zero
# exit) with a message naming the file and what is wrong; a well-formed one
# must pass.
#
#   run-trace-errors.sh BUILD_DIR WORK_DIR
set -eu
build=$(cd "$1" && pwd) work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
inspect=$build/bin/popcorn-inspect
failed=0

# expect NAME STATUS MESSAGE CONTENT: popcorn-inspect trace NAME.json
# exits with STATUS (0 or "fail") and says MESSAGE.
expect() {
	printf '%s' "$4" >"$1.json"
	set +e
	"$inspect" trace "$1.json" >"$1.out" 2>&1
	status=$?
	set -e
	if [ "$2" = fail ] && [ $status -eq 0 ]; then
		echo "FAIL: $1: popcorn-inspect trace accepted it"
		failed=1
	elif [ "$2" = 0 ] && [ $status -ne 0 ]; then
		echo "FAIL: $1: popcorn-inspect trace exited with $status"
		failed=1
	elif ! grep -q -- "$3" "$1.out"; then
		echo "FAIL: $1: the output does not say '$3':"
		failed=1
	else
		echo "ok: $1: $(head -n 1 "$1.out")"
		return
	fi
	cat "$1.out"
}

migration='{"name":"migrate 0 -> 1","cat":"migration","ph":"X","pid":1,"tid":1,"ts":1,"dur":5,"args":{"from":0,"to":1,"frames":3,"bytes":100}}'
expect not-json fail "not-json.json: not JSON" '{"traceEvents": ['
expect no-events fail "no-events.json: .*traceEvents" '{"events": []}'
expect not-an-event fail "not-an-event.json: event 1: not an object" "{\"traceEvents\":[$migration,3]}"
expect no-duration fail "no-duration.json: event 0: .*dur" \
	'{"traceEvents":[{"name":"page fault","cat":"page-fault","ph":"X","pid":1,"ts":1}]}'
expect no-direction fail "no-direction.json: event 0: .*from" \
	'{"traceEvents":[{"name":"migrate","cat":"migration","ph":"X","pid":1,"ts":1,"dur":2}]}'
expect stray-phase fail "stray-phase.json: the rewrite phase .* not inside a migration" \
	'{"traceEvents":[{"name":"rewrite","cat":"migration-phase","ph":"X","pid":1,"ts":1,"dur":2}]}'
expect well-formed 0 "^migrations: 1," \
	"{\"traceEvents\":[{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"node 0 (x86_64, home)\"}},$migration]}"

set +e
"$inspect" trace missing.json >missing.out 2>&1
status=$?
set -e
if [ $status -eq 0 ] || ! grep -q "missing.json" missing.out; then
	echo "FAIL: a missing trace file: status $status, output:"
	cat missing.out
	failed=1
else
	echo "ok: missing: $(cat missing.out)"
fi
exit $failed
