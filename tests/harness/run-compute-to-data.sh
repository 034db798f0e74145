#!/bin/sh
# bench/compute-to-data.c, one trial a length on node 2: it builds, every
# chase reads the list's values and popcorn_run_on brings the thread back
# (the program checks both and fails otherwise), and the table has a row
# for each of its eleven lengths and a verdict.
#
#   run-compute-to-data.sh BIN_DIR SOURCE WORK_DIR
set -eu
. "$(dirname "$0")/../lib/runs.sh"
[ $# -eq 3 ] || { echo "usage: $0 BIN_DIR SOURCE WORK_DIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) src=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
enter_work_dir "$3"
timeout 300 "$bin/popcorn-clang" -O2 "$src" -o compute-to-data 2>build.err ||
	{ echo "FAIL: popcorn-clang $src"; cat build.err; exit 1; }
if ! timeout 120 ./compute-to-data 2 1 >table 2>err; then
	echo "FAIL: compute-to-data 2 1 failed"
	cat table err
	exit 1
fi
rows=$(grep -cE '^ +[0-9]+ +[0-9.]+ +[0-9.]+ +(fetch|move)$' table || true)
[ "$rows" -eq 11 ] || { echo "FAIL: $rows rows, not 11"; cat table; exit 1; }
grep -qE '^(moving the thread wins from [0-9]+ pages on|fetching wins at every length measured)$' table ||
	{ echo "FAIL: no verdict"; cat table; exit 1; }
echo "ok"
cat table
