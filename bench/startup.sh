#!/usr/bin/env bash
# What starting a program costs, as scripts and test suites that run
# thousands of short processes see it: the median time of fork, exec and
# wait of a hello world (bench/spawn-timer.c), popcorn-clang -O2 against
# stock (clang-19 -O2 -static, Debian's unmodified musl: bench/stock.sh),
# and popcorn with POPCORN_CONTROL=off (no control socket, even if asked).
#
#   bench/startup.sh BUILD_DIR [--runs N] [--rounds R] [--callgrind]
#
# Each variant runs N times a round, R rounds interleaved (stock, popcorn,
# popcorn off, stock, ...); the median of a variant's round medians is
# reported, with its ratio to stock.  --callgrind adds the instructions
# one run executes.  The table goes to stdout and BUILD_DIR/bench/startup.txt,
# work files to BUILD_DIR/bench/startup-work.
set -u

usage() {
  cat >&2 <<'EOF2'
usage: bench/startup.sh BUILD_DIR [--runs N] [--rounds R] [--callgrind]
  --runs N      runs of each variant per round (default 1000)
  --rounds R    rounds, interleaved (default 3)
  --callgrind   also count one run's instructions with valgrind --tool=callgrind
Environment: CLANG (clang-19), LLD (ld.lld-19), VALGRIND (valgrind),
             STOCK_MUSL_INCLUDE_x86_64, STOCK_MUSL_LIB_x86_64, STOCK_LIBGCC_x86_64
EOF2
  exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -*) usage ;; esac
BUILD=$1
shift
RUNS=1000
ROUNDS=3
CALLGRIND=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
    --rounds) [ $# -ge 2 ] || usage; ROUNDS=$2; shift 2 ;;
    --callgrind) CALLGRIND=1; shift ;;
    -h|--help) usage ;;
    *) echo "startup.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
for n in "$RUNS" "$ROUNDS"; do
  case "$n" in
    ''|*[!0-9]*|0) echo "startup.sh: --runs and --rounds need a positive integer" >&2; exit 2 ;;
  esac
done

CLANG=${CLANG:-clang-19}
LLD=${LLD:-ld.lld-19}
VALGRIND=${VALGRIND:-valgrind}
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$BUILD" && pwd) || { echo "startup.sh: no build directory '$1'" >&2; exit 2; }
POPCC=$BUILD/bin/popcorn-clang
WORK=$BUILD/bench/startup-work
RESULTS=$BUILD/bench/startup.txt

[ -x "$POPCC" ] || { echo "startup.sh: missing $POPCC (build the project first)" >&2; exit 1; }
. "$SRC_DIR/stock.sh"
stock_init x86_64 || exit 1
mkdir -p "$WORK" || exit 1
LOG=$WORK/build.log
: >"$LOG"

cat >"$WORK/hello.c" <<'EOF2'
#include <stdio.h>

int main(void) {
  printf("hello, world\n");
  return 0;
}
EOF2
built() { # what command...
  local what=$1
  shift
  "$@" >>"$LOG" 2>&1 || { echo "startup.sh: cannot build $what (see $LOG)" >&2; exit 1; }
}
built spawn-timer "$CLANG" -O2 -o "$WORK/spawn-timer" "$SRC_DIR/spawn-timer.c"
built "the stock hello" stock_build x86_64 "$WORK/hello.c" "$WORK/hello.stock"
built "the popcorn hello" "$POPCC" -O2 -o "$WORK/hello.popcorn" "$WORK/hello.c"

# The sockets any run opens (none, unless asked) go here, not the user's.
export XDG_RUNTIME_DIR=$WORK/run
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

variants=(stock popcorn off)
program_of() { # variant
  case $1 in stock) echo "$WORK/hello.stock" ;; *) echo "$WORK/hello.popcorn" ;; esac
}
setting_of() { # variant: its environment, beyond this one's
  case $1 in off) echo POPCORN_CONTROL=off ;; esac
}

declare -A medians
for ((round = 1; round <= ROUNDS; round++)); do
  for v in "${variants[@]}"; do
    # shellcheck disable=SC2046 # the setting is one word, or none
    m=$(env $(setting_of "$v") "$WORK/spawn-timer" "$RUNS" "$(program_of "$v")") || exit 1
    medians[$v]="${medians[$v]:-} $m"
  done
done

median_of() { # of the numbers in stdin, separated by spaces
  tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
instructions() { # variant
  # shellcheck disable=SC2046
  env $(setting_of "$1") "$VALGRIND" --tool=callgrind --callgrind-out-file=/dev/null \
    "$(program_of "$1")" 2>&1 >/dev/null | awk '/Collected :/ { print $NF }'
}

{
  echo "Start-up of a hello world: median of $ROUNDS rounds of $RUNS fork+exec+wait each"
  printf '%-34s %10s %8s' "variant" "median µs" "ratio"
  [ "$CALLGRIND" = 1 ] && printf ' %14s' "instructions"
  echo
  stock=$(echo "${medians[stock]}" | median_of)
  for v in "${variants[@]}"; do
    m=$(echo "${medians[$v]}" | median_of)
    case $v in
      stock) label="stock (clang-19 -O2 -static musl)" ;;
      popcorn) label="popcorn-clang -O2" ;;
      off) label="popcorn, POPCORN_CONTROL=off" ;;
    esac
    ratio=$(awk -v a="$m" -v b="$stock" 'BEGIN { printf "%.2f", a / b }')
    printf '%-34s %10s %8s' "$label" "$m" "$ratio"
    if [ "$CALLGRIND" = 1 ]; then
      printf ' %14s' "$(instructions "$v")"
    fi
    echo
  done
} | tee "$RESULTS"
