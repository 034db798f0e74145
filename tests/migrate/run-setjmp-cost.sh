#!/bin/sh
# setjmp and longjmp cost the same whatever the stack's depth: the
# instructions (callgrind) that COUNT setjmp/longjmp pairs add to a run
# 1000 frames deep and to one 10 frames deep differ by less than one per
# pair.  (A walk to the thread's base at each would add thousands.)
#
#   run-setjmp-cost.sh BUILD_DIR SOURCE WORK_DIR
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 BUILD_DIR SOURCE WORK_DIR" >&2
	exit 2
fi
build=$1 src=$2 work=$3
if ! command -v valgrind >/dev/null; then
	echo "SKIP: no valgrind"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$build/bin/popcorn-clang" -O2 "$src" -o "$work/prog"

# instructions DEPTH COUNT: what one run executes, by callgrind.
instructions() {
	out=$work/cg.$1.$2
	valgrind --tool=callgrind --callgrind-out-file="$out" "$work/prog" "$1" "$2" \
		>"$out.stdout" 2>"$out.log" || { echo "FAIL: the run $1 $2 under valgrind" >&2; cat "$out.log" >&2; exit 1; }
	[ "$(cat "$out.stdout")" = "$2" ] || { echo "FAIL: the run $1 $2 printed $(cat "$out.stdout")" >&2; exit 1; }
	awk '/^summary:/ { print $2 }' "$out"
}

count=2000
# The pairs' own cost at a depth: the run with them less the run without.
pairs_cost() { echo $(($(instructions "$1" $count) - $(instructions "$1" 0))); }
shallow=$(pairs_cost 10)
deep=$(pairs_cost 1000)
echo "$count setjmp/longjmp pairs: $shallow instructions 10 frames deep, $deep 1000 frames deep"
if [ $((deep - shallow)) -ge $count ] || [ $((shallow - deep)) -ge $count ]; then
	echo "FAIL: their cost depends on the stack's depth"
	exit 1
fi
echo PASS
