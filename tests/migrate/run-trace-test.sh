#!/bin/sh
# POPCORN_TRACE end to end: build SOURCE (a program that prints
# "migrations: N", the times it moved), run it with a trace, once ending at
# home and once ending away from home ("away"), and check each trace
# (check-trace.py), popcorn-inspect trace's count and its SVG.
#
#   run-trace-test.sh BUILD_DIR SOURCE WORK_DIR
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd) src=$2 work=$3
case $src in /*) ;; *) src=$(pwd)/$src ;; esac
enter_work_dir "$work"
inspect=$build/bin/popcorn-inspect

if ! timeout 300 "$build/bin/popcorn-clang" -O2 "$src" -o prog 2>build.err; then
	echo "FAIL: popcorn-clang -O2 $src"
	cat build.err
	exit 1
fi

failed=0
for ending in home away; do
	run "$ending" env POPCORN_TRACE="$ending.json" ./prog "$ending"
	moves=$(sed -n 's/^migrations: \([0-9]*\)$/\1/p' "$ending.stdout")
	if [ -z "$moves" ] || [ "$moves" -lt 2 ] || ! grep -q '^=== exit status 0$' "$ending.run"; then
		echo "FAIL: ending $ending, the program did not move and end well:"
		cat "$ending.run"
		failed=1
		continue
	fi
	if [ ! -s "$ending.json" ]; then
		echo "FAIL: ending $ending, no trace file"
		cat "$ending.run"
		failed=1
		continue
	fi
	python3 -m json.tool "$ending.json" >/dev/null || { echo "FAIL: $ending.json is not JSON"; failed=1; }
	python3 "$here/check-trace.py" "$ending.json" "$moves" || failed=1

	if ! "$inspect" trace "$ending.json" >"$ending.summary" 2>&1; then
		echo "FAIL: popcorn-inspect trace $ending.json:"
		cat "$ending.summary"
		failed=1
	elif ! grep -q "^migrations: $moves," "$ending.summary"; then
		echo "FAIL: popcorn-inspect trace does not count $moves migrations:"
		cat "$ending.summary"
		failed=1
	else
		echo "ok: popcorn-inspect trace $ending.json counts $moves migrations"
	fi
	cat "$ending.summary"

	rm -f "$ending.svg"
	if ! "$inspect" trace --svg "$ending.svg" "$ending.json" ||
		! python3 -c 'import sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
rects = root.iter("{http://www.w3.org/2000/svg}rect")
sys.exit(0 if root.tag.endswith("svg") and sum(1 for _ in rects) > 3 else 1)' "$ending.svg"; then
		echo "FAIL: popcorn-inspect trace --svg gave no SVG picture"
		failed=1
	else
		echo "ok: $ending.svg is SVG"
	fi
done
exit $failed
