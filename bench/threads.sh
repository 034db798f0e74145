#!/bin/sh
# The price of a thread away while the others wait at home: bench/threads.c
# built once with popcorn-clang -O2, each workload run with both threads
# home and with the second on node 2 (an x86-64 process), interleaved,
# RUNS times; the medians' ratio is the speed split keeps.
#
#   bench/threads.sh BUILD_DIR [--runs 5]
set -eu
build=$(cd "${1:?usage: bench/threads.sh BUILD_DIR [--runs N]}" && pwd)
shift
runs=5
[ "${1:-}" = --runs ] && runs=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$build/bench/threads
mkdir -p "$work"
"$build/bin/popcorn-clang" -O2 "$here/threads.c" -o "$work/threads"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "workload  home ms  split ms  split/home"
for w in private locked; do
	: >"$work/$w.home"
	: >"$work/$w.split"
	i=0
	while [ $i -lt "$runs" ]; do
		for where in home split; do
			"$work/threads" "$w" "$where" | sed -n 's/.*, \([0-9]*\) ms$/\1/p' >>"$work/$w.$where"
		done
		i=$((i + 1))
	done
	h=$(median <"$work/$w.home") s=$(median <"$work/$w.split")
	printf '%-9s %7s  %8s  %10s\n' "$w" "$h" "$s" "$(awk -v h="$h" -v s="$s" 'BEGIN { printf "%.2f", s / (h ? h : 1) }')"
done
