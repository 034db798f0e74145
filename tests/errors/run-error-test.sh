#!/bin/sh
# popcorn-clang must refuse one input cleanly: non-zero exit status, no
# crash (status < 128, no LLVM stack dump), no output file, and a message
# that says what and where.  The expectations are comments in the input:
#   // ARGS: ...          popcorn-clang options (default: -O2 -c)
#   // EXPECT: text       stderr contains this text (any number of lines)
#   // EXPECT-LINE: N M   stderr names <input file name>:N (or :M, ...)
#   // FILE: NAME TEXT    write TEXT into NAME beside the input first
#
#   run-error-test.sh BIN_DIR SOURCE WORK_DIR
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 BIN_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
bin=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
name=$(basename "$src")
# Compile a copy in the work directory, so that the message names the file
# as it was given.
cp "$src" "$work/$name"
cd "$work"

sed -n 's,^// FILE: *,,p' "$name" | while read -r file text; do
	printf '%s\n' "$text" >"$file"
done
args=$(sed -n 's,^// ARGS: *,,p' "$name")
[ -n "$args" ] || args="-O2 -c"
if ! grep -q '^// EXPECT: ' "$name"; then
	echo "FAIL: $name states no // EXPECT: line"
	exit 1
fi

set +e
timeout 120 "$bin/popcorn-clang" $args "$name" -o out >stdout.txt 2>stderr.txt
status=$?
set -e
echo "popcorn-clang $args $name: exit status $status"
cat stderr.txt

fail=0
if [ "$status" -eq 0 ]; then
	echo "FAIL: popcorn-clang accepted $name"
	fail=1
elif [ "$status" -ge 124 ]; then
	echo "FAIL: popcorn-clang crashed or timed out (exit status $status)"
	fail=1
fi
if grep -q -e 'Stack dump' -e 'PLEASE submit a bug report' -e 'LLVM ERROR' stderr.txt; then
	echo "FAIL: popcorn-clang crashed instead of reporting an error"
	fail=1
fi
if [ -e out ]; then
	echo "FAIL: an output file was written"
	fail=1
fi
sed -n 's,^// EXPECT: *,,p' "$name" >expect.txt
while IFS= read -r text; do
	if ! grep -qF -- "$text" stderr.txt; then
		echo "FAIL: the message does not contain: $text"
		fail=1
	fi
done <expect.txt
lines=$(sed -n 's,^// EXPECT-LINE: *,,p' "$name")
if [ -n "$lines" ]; then
	found=0
	for line in $lines; do
		grep -qF -- "$name:$line:" stderr.txt && found=1
	done
	if [ $found -eq 0 ]; then
		echo "FAIL: the message does not name $name:<line> with line one of: $lines"
		fail=1
	fi
fi
[ $fail -eq 0 ] && echo "ok: $name refused as expected"
exit $fail
