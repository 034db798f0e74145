#!/bin/sh
# Runs a test script on input that must make it fail, and passes if it
# does, with exit status STATUS and a line of its output matching MESSAGE
# (an extended regular expression): a check that cannot fail is caught.
#
#   expect-failure.sh STATUS MESSAGE COMMAND...
set -u
if [ $# -lt 3 ]; then
	echo "usage: $0 STATUS MESSAGE COMMAND..." >&2
	exit 2
fi
want=$1 message=$2
shift 2
output=$("$@" 2>&1)
status=$?
if [ $status -eq "$want" ] && echo "$output" | grep -Eq -- "$message"; then
	echo "ok: exit $status: $(echo "$output" | grep -E -m1 -- "$message")"
	exit 0
fi
echo "FAIL: expected exit status $want and a line matching '$message' from: $*"
echo "exit status $status, output:"
echo "$output"
exit 1
