#!/usr/bin/env bash
# How fast a program runs while it moves on a timer: each benchmark built
# once with popcorn-clang -O2, run staying home (POPCORN_NODES with node 0
# alone) and moving every PERIOD (POPCORN_MIGRATE=period=PERIOD: away to
# NODE at one tick, home at the next), interleaved; the ratio of the
# medians is the share of its own speed the program keeps.  The target:
# 95% at 100ms between two x86-64 processes (node 2).  A tick is taken at
# the next migration point, so the programs are built with loop points
# (-fpopcorn-loop-period=LOOPS, default 1000): without them a hot loop has
# none.  Both runs use the same executable.
#
# --cpus LIST runs both under taskset -c LIST.  On a virtual machine a
# processor that sat idle while the thread was on the other one can run
# slower for tens of milliseconds once it wakes (the hypervisor's doing:
# the same instructions, uniformly slower); with --cpus 0 home and node
# share one processor and that cost is gone, which shows what the
# runtime itself costs.
#
#   bench/periodic.sh BUILD_DIR [--period 100ms] [--node 2] [--runs 5]
#                     [--loop-period 1000] [--only a,b] [--cpus LIST]
#
# Writes BUILD_DIR/bench/periodic.txt.  Besides the share each program
# keeps, the table gives what a moving run moved (pages fetched by the
# node plus pages written back home, and the node's page requests;
# medians) and the most that a transport which copies each of those pages
# once, and makes each request a round trip, could keep: home's time
# against home's time plus one out-of-cache page copy per page and one
# polled round trip per request, as bench/floor.c measures them (built
# with CLANG, default clang-19).
set -u

BUILD=${1:?usage: bench/periodic.sh BUILD_DIR [--period D] [--node N] [--runs N] [--only a,b]}
shift
PERIOD=100ms NODE=2 RUNS=5 LOOPS=1000 ONLY="" PIN=()
while [ $# -gt 0 ]; do
  case "$1" in
    --period) PERIOD=$2; shift 2 ;;
    --node) NODE=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --loop-period) LOOPS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --cpus) PIN=(taskset -c "$2"); shift 2 ;;
    *) echo "periodic.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$BUILD" && pwd) || exit 2
WORK=$BUILD/bench/periodic-work
RESULTS=$BUILD/bench/periodic.txt
mkdir -p "$WORK"

"${CLANG:-clang-19}" -O2 "$SRC_DIR/floor.c" -o "$WORK/floor" ||
  { echo "periodic.sh: cannot build bench/floor.c" >&2; exit 2; }
read -r COPY_NS TRIP_NS < <("${PIN[@]}" "$WORK/floor")
[ -n "${TRIP_NS:-}" ] || { echo "periodic.sh: bench/floor failed" >&2; exit 2; }

# Name and a size argument that makes each run last a few seconds here,
# so that it sees tens of ticks.
BENCHMARKS="
bintree 16
hashtab 3000000
interp 360000
mandel 3000
matmul 1200
nbody 10000000
qsortcb 1500000
rescan 800
sieve 150000
spectral 4000
"

# From the runtime's stats lines in file $2, one line each: $1 with \1
# the pages fetched, \2 the requests, \3 the pages written back.
page_stats() {
  sed -n "s/^popcorn: .*, \([0-9]*\) pages fetched in \([0-9]*\) requests, \([0-9]*\) pages written back.*/$1/p" "$2"
}
now_us() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Runs "$@", appending its output to $1.log; prints wall-clock microseconds.
timed() {
  local log=$1 start end
  shift
  start=$(now_us)
  "$@" >>"$log" 2>&1 || { echo FAIL; return; }
  end=$(now_us)
  echo $((end - start))
}

{
  echo "Moving every $PERIOD between node 0 and node $NODE, $RUNS runs each (medians);"
  echo "built with -fpopcorn-loop-period=$LOOPS${PIN:+; run under ${PIN[*]}};"
  echo "a page copied once out of cache: $COPY_NS ns; a polled round trip: $TRIP_NS ns"
  printf '%-10s %10s %10s %8s %7s %9s %9s %7s\n' program home_s moving_s moves kept pages requests at_most
} | tee "$RESULTS"
status=0
while read -r name size; do
  [ -n "$name" ] || continue
  case ",$ONLY," in ,,|*",$name,"*) ;; *) continue ;; esac
  prog=$WORK/$name
  "$BUILD/bin/popcorn-clang" -O2 -fpopcorn-loop-period="$LOOPS" "$SRC_DIR/$name.c" -o "$prog" 2>"$prog.build.log" ||
    { echo "$name: build failed (see $prog.build.log)"; status=1; continue; }
  : >"$prog.home.log"
  : >"$prog.moving.log"
  home=() moving=()
  for run in $(seq "$RUNS"); do
    home+=("$(timed "$prog.home.log" "${PIN[@]}" env POPCORN_NODES=0:x86_64:native "$prog" "$size")")
    moving+=("$(timed "$prog.moving.log" "${PIN[@]}" env POPCORN_LOG=stats \
      POPCORN_MIGRATE="period=$PERIOD;nodes=$NODE" "$prog" "$size")")
  done
  if printf '%s\n' "${home[@]}" "${moving[@]}" | grep -q FAIL; then
    echo "$name: a run failed (see $prog.*.log)"
    status=1
    continue
  fi
  # Both runs print the same results; the moving ones add the runtime's
  # line with the number of moves.
  if ! diff <(grep -v '^popcorn:' "$prog.home.log") <(grep -v '^popcorn:' "$prog.moving.log") >/dev/null; then
    echo "$name: moving changed the output (see $prog.*.log)"
    status=1
    continue
  fi
  moves=$(sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p' "$prog.moving.log" | median)
  pages=$(page_stats '\1 \3' "$prog.moving.log" | awk '{ print $1 + $2 }' | median)
  requests=$(page_stats '\2' "$prog.moving.log" | median)
  h=$(printf '%s\n' "${home[@]}" | median)
  m=$(printf '%s\n' "${moving[@]}" | median)
  awk -v n="$name" -v h="$h" -v m="$m" -v k="$moves" -v p="$pages" -v r="$requests" \
    -v c="$COPY_NS" -v t="$TRIP_NS" \
    'BEGIN { printf "%-10s %10.2f %10.2f %8d %6.1f%% %9d %9d %6.1f%%\n", n, h / 1e6, m / 1e6, k * 2,
             100 * h / m, p, r, 100 * h / (h + (p * c + r * t) / 1000) }' |
    tee -a "$RESULTS"
done <<<"$BENCHMARKS"
exit $status
