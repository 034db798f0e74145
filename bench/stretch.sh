#!/usr/bin/env bash
# How long a migration request can wait: the longest stretch of executed
# instructions between two migration points of a thread, on the
# benchmarks, as built by default (points at function entry and, every so
# many iterations, in the loops that could run long without one) and with
# -fpopcorn-loop-period=N (every N iterations of every loop instead).  A
# request made during a stretch is taken at its end.
#
#   bench/stretch.sh BUILD_DIR [--period N] [--only a,b,...]
#   bench/stretch.sh --points IMAGE   the migration points of an x86-64 image
#
# Each program's x86-64 image runs under qemu-x86_64 with every translated
# block's instructions and every execution of a block logged (-d
# in_asm,exec,nochain), read as it is written; a migration point is the test
# of the pending-request flag (an instruction that reads
# __popcorn_migration_pending, found in the disassembly; the runtime's
# stores to it are not points).  Only the main
# thread counts.  Sizes are smaller than run.sh's: qemu logging every block
# runs about half a million instructions a second.  The default build's
# longest stretch is also given in time: its instructions at the rate the
# same image runs natively (its CPU time over its instructions, one run).
# The table goes to stdout and BUILD_DIR/bench/stretch.txt.
set -u

usage() {
  cat >&2 <<'EOF'
usage: bench/stretch.sh BUILD_DIR [--period N] [--only NAME,NAME,...]
       bench/stretch.sh --points IMAGE
  --period N   loop points every N iterations in the "on" column (default 1000;
               auto: where the compiler finds them needed;
               0: no such column)
  --only       only these benchmarks
Environment: QEMU (qemu-x86_64), OBJDUMP (llvm-objdump-19)
EOF
  exit 2
}

# The addresses of the migration points' tests in an x86-64 image, one per
# line, as qemu prints guest addresses (16 hex digits): the instructions
# that read the flag (Intel syntax: cmp and test, or one whose destination,
# its first operand, is not the flag), not those that write it or take its
# address (lea).
points() {
  "$OBJDUMP" -d --no-show-raw-insn -M intel "$1" | awk '
    function reads_flag(insn,   op, first) {
      op = insn; sub(/[ \t].*/, "", op)
      if (op == "lea" || insn !~ /\[/) return 0
      if (op == "cmp" || op == "test") return 1
      if (op == "lock" || op ~ /xchg|xadd/) return 0
      first = insn; sub(/^[a-z0-9]+[ \t]+/, "", first); sub(/,.*/, "", first)
      return first !~ /\[/
    }
    /<__popcorn_migration_pending>/ {
      insn = $0; sub(/^[^:]*:[ \t]*/, "", insn); sub(/[ \t]*#.*/, "", insn)
      if (!reads_flag(insn)) next
      a = $1; sub(":", "", a); while (length(a) < 16) a = "0" a; print a
    }'
}

OBJDUMP=${OBJDUMP:-llvm-objdump-19}
[ $# -ge 1 ] || usage
if [ "$1" = --points ]; then
  [ $# -eq 2 ] || usage
  command -v "$OBJDUMP" >/dev/null || { echo "stretch.sh: '$OBJDUMP' not found" >&2; exit 1; }
  points "$2"
  exit
fi
case "$1" in -*) usage ;; esac
BUILD=$1
shift
PERIOD=1000
ONLY=
while [ $# -gt 0 ]; do
  case "$1" in
    --period) [ $# -ge 2 ] || usage; PERIOD=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || usage; ONLY=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "stretch.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$PERIOD" in auto) ;; ''|*[!0-9]*) echo "stretch.sh: --period wants a number or auto, not '$PERIOD'" >&2; exit 2 ;; esac

QEMU=${QEMU:-qemu-x86_64}
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$BUILD" && pwd) || { echo "stretch.sh: no build directory '$1'" >&2; exit 2; }
POPCC=$BUILD/bin/popcorn-clang
INSPECT=$BUILD/bin/popcorn-inspect
WORK=$BUILD/bench/stretch-work
RESULTS=$BUILD/bench/stretch.txt
[ -x "$POPCC" ] || { echo "stretch.sh: missing $POPCC (build the project first)" >&2; exit 1; }
for tool in "$QEMU" "$OBJDUMP"; do
  command -v "$tool" >/dev/null || { echo "stretch.sh: '$tool' not found" >&2; exit 1; }
done
mkdir -p "$WORK" || exit 1

# name and size argument (smaller than run.sh's callgrind sizes)
BENCHMARKS="
bintree 10
hashtab 40000
interp 600
mandel 120
matmul 100
nbody 30000
qsortcb 10000
recurse 24
sieve 1000
spectral 200
strsearch 256
"

# Runs IMAGE ARG under qemu and prints "longest stretches total to from":
# the longest stretch (instructions from one point's test to the next's, or
# to the exit),
# how many stretches, the instructions of the main thread, and the
# functions of the points that ended and began the longest.
longest_stretch() { # points-file image arg
  local fifo=$WORK/trace.fifo
  rm -f "$fifo" && mkfifo "$fifo" || return 1
  "$QEMU" -d in_asm,exec,nochain -D "$fifo" "$2" "$3" >/dev/null 2>"$WORK/qemu.err" &
  local qemu=$!
  awk -v points="$1" '
    function trim(a) { sub(/^0x/, "", a); sub(/:$/, "", a); sub(/^0+/, "", a); return a }
    BEGIN { while ((getline a < points) > 0) point[trim(a)] = 1 }
    # A translated block: its instructions, and where the points are in it.
    /^IN:/ { inblock = 1; n = 0; np = 0; start = ""; next }
    inblock && /^0x/ {
      a = trim($1)
      if (start == "") start = a
      if (a in point) at[start, ++np] = n
      n++
      next
    }
    inblock { length_of[start] = n; points_in[start] = np; inblock = 0; next }
    # A block executed by the main thread (CPU 0), with its function name.
    $1 == "Trace" && $2 == "0:" {
      split($4, f, "/"); pc = trim(f[2]); fn = NF >= 5 ? $5 : "?"
      pos = 0
      for (i = 1; i <= points_in[pc]; i++) {
        p = at[pc, i]; count += p - pos; pos = p
        if (last != "") { stretches++; if (count > best) { best = count; from = last; to = fn } }
        last = fn; count = 0
      }
      count += length_of[pc] - pos
      total += length_of[pc]
    }
    # The last stretch, from the last point to the exit, counts too (a
    # whole qsort with a leaf comparator, in libc, which has no points).
    END {
      if (last != "" && count > best) { best = count; from = last; to = "exit" }
      printf "%d %d %d %s %s\n", best, stretches, total, to, from
    }' "$fifo"
  wait "$qemu" || { echo "stretch.sh: $2 $3 failed under $QEMU: $(tail -1 "$WORK/qemu.err")" >&2; return 1; }
}

# The columns of a mode whose program did not build or run.
failed_columns() { # mode what
  if [ "$1" = default ]; then
    printf '%10s %8s %8s  %-30s' "$2" - - -
  else
    printf '%10s %8s  %-30s' "$2" - -
  fi
}

# Microseconds a stretch of BEST instructions takes at the rate IMAGE ARG
# runs natively: its CPU time (one run) over its TOTAL instructions.
stretch_us() { # image arg best total
  local TIMEFORMAT='%3U %3S' cpu
  cpu=$( { time "$1" "$2" >/dev/null 2>&1; } 2>&1 ) || { echo -; return; }
  echo "$cpu" | awk -v best="$3" -v total="$4" '{ printf "%.0f", ($1 + $2) * 1e6 * best / total }'
}

{
  echo "Longest stretch between two migration points of the main thread (instructions, x86-64 image under qemu)"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  source: $(git -C "$SRC_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  if [ "$PERIOD" = 0 ]; then
    echo "default: popcorn-clang -O2"
  else
    echo "default: popcorn-clang -O2; on: -fpopcorn-loop-period=$PERIOD"
  fi
  echo
  printf '%-10s %6s %9s | %10s %8s %8s  %-30s' benchmark size "total" \
    "max" "max us" stretches "ended in (began in)"
  [ "$PERIOD" = 0 ] || printf ' | %10s %8s  %-30s' "on: max" stretches "ended in (began in)"
  echo
  printf -- '-%.0s' $(seq 1 130); echo
} | tee "$RESULTS"

echo "$BENCHMARKS" | while read -r name arg; do
  [ -n "$name" ] || continue
  if [ -n "$ONLY" ]; then
    case ",$ONLY," in *",$name,"*) ;; *) continue ;; esac
  fi
  cols=
  total=-
  modes=default
  [ "$PERIOD" = 0 ] || modes="default on"
  for mode in $modes; do
    flags=-O2
    [ "$mode" = on ] && flags="-O2 -fpopcorn-loop-period=$PERIOD"
    exe=$WORK/$name.$mode
    # shellcheck disable=SC2086
    if ! "$POPCC" $flags "$SRC_DIR/$name.c" -o "$exe" -lm 2>"$WORK/$name.$mode.build.log" ||
       ! "$INSPECT" extract --isa x86_64 "$exe" "$exe.x86_64" >/dev/null; then
      cols="$cols | $(failed_columns "$mode" BUILD-FAIL)"
      continue
    fi
    points "$exe.x86_64" >"$exe.points"
    if ! result=$(longest_stretch "$exe.points" "$exe.x86_64" "$arg"); then
      cols="$cols | $(failed_columns "$mode" RUN-FAIL)"
      continue
    fi
    read -r best count n to from <<<"$result"
    if [ "$mode" = default ]; then
      total=$n
      cols="$cols | $(printf '%10s %8s %8s  %-30s' "$best" "$(stretch_us "$exe.x86_64" "$arg" "$best" "$n")" \
        "$count" "$to ($from)")"
    else
      cols="$cols | $(printf '%10s %8s  %-30s' "$best" "$count" "$to ($from)")"
    fi
  done
  printf '%-10s %6s %9s%s\n' "$name" "$arg" "$total" "$cols" | tee -a "$RESULTS"
done
