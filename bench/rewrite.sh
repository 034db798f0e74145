#!/usr/bin/env bash
# Stack rewrite latency, x86-64 -> aarch64, measured at home on x86-64: for
# stacks of about 1, 10, 100 and 1,000 frames, each frame with eight values
# live across its call (rewrite.c), the thread moves to NODE (default 1,
# aarch64 under qemu-user) and back TRIPS times under POPCORN_TRACE; the
# rewrite phase of the moves away from home is read from the trace
# (popcorn-inspect trace).  Prints median, 99th percentile and cost per
# frame.  The smallest stack is the recursion's one frame plus main's and
# libc's start frames below it.
#
#   bench/rewrite.sh BUILD_DIR [--trips 200] [--node 1]
#
# Writes BUILD_DIR/bench/rewrite.txt.
set -u

BUILD=${1:?usage: bench/rewrite.sh BUILD_DIR [--trips N] [--node N]}
shift
TRIPS=200 NODE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --trips) TRIPS=$2; shift 2 ;;
    --node) NODE=$2; shift 2 ;;
    *) echo "rewrite.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$BUILD" && pwd) || exit 2
WORK=$BUILD/bench/rewrite-work
RESULTS=$BUILD/bench/rewrite.txt
mkdir -p "$WORK"

"$BUILD/bin/popcorn-clang" -O2 "$SRC_DIR/rewrite.c" -o "$WORK/rewrite" || exit 1

# A duration as popcorn-inspect prints it ("812.3 us", "1.204 ms", "2.1 s")
# in microseconds.
to_us() {
  awk -v v="$1" -v u="$2" 'BEGIN { m = u == "s" ? 1e6 : u == "ms" ? 1e3 : 1; printf "%.2f", v * m }'
}

# Runs the recursion DEPTH deep; prints "frames median_us p99_us" of the
# rewrites away from home.
measure() {
  local depth=$1 trace=$WORK/rewrite-$1.json summary=$WORK/rewrite-$1.txt
  rm -f "$trace"
  if ! POPCORN_TRACE=$trace "$WORK/rewrite" "$depth" "$TRIPS" "$NODE" >"$WORK/rewrite-$depth.out" 2>&1; then
    echo "rewrite.sh: the program failed at depth $depth:" >&2
    cat "$WORK/rewrite-$depth.out" >&2
    exit 1
  fi
  "$BUILD/bin/popcorn-inspect" trace "$trace" >"$summary" || exit 1
  # The "0 -> NODE" row (its frames) and the rewrite row under it.
  awk -v away="0 -> $NODE" '
    index($0, "  " away " ") == 1 { inside = 1; frames = $(NF - 1); next }
    inside && $1 == "rewrite" { print frames, $3, $4, $5, $6; exit }
    inside && /^  [^ ]/ { inside = 0 }' "$summary"
}

# The stack below the recursion (main, libc's start): measured once.
read -r base_frames _ < <(measure 1)
[ -n "${base_frames:-}" ] || { echo "rewrite.sh: no rewrite in the trace" >&2; exit 1; }
base_frames=$((base_frames - 1))

{
  echo "Stack rewrite latency, x86-64 -> node $NODE's ISA, measured at home (x86-64)"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  host: $(uname -m), $(nproc) cpus  trips: $TRIPS per row"
  echo "8 values live across each frame's call; $base_frames frames below the recursion (main, libc's start)"
  echo
  printf '%8s %12s %12s %14s\n' frames "median us" "p99 us" "us per frame"
  for target in 1 10 100 1000; do
    depth=$((target - base_frames))
    [ "$depth" -ge 1 ] || depth=1
    read -r frames med med_unit p99 p99_unit < <(measure "$depth")
    [ -n "${frames:-}" ] || { echo "rewrite.sh: no rewrite in the trace at depth $depth" >&2; exit 1; }
    med=$(to_us "$med" "$med_unit")
    p99=$(to_us "$p99" "$p99_unit")
    printf '%8s %12s %12s %14s\n' "$frames" "$med" "$p99" \
      "$(awk -v m="$med" -v f="$frames" 'BEGIN { printf "%.3f", m / f }')"
  done
} | tee "$RESULTS"
