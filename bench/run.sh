#!/usr/bin/env bash
# Compare popcorn-clang -O2 (multi-ISA executable, run on x86-64) with plain
# clang-19 -O2 against the same x86-64 musl.  See bench/README.md.
#
#   bench/run.sh BUILD_DIR [--runs N] [--callgrind] [--only a,b,...]
#
# Writes its work files under BUILD_DIR/bench/work and the table to
# BUILD_DIR/bench/results.txt.
set -u

usage() {
  cat >&2 <<'EOF'
usage: bench/run.sh BUILD_DIR [--runs N] [--callgrind] [--only NAME,NAME,...]
  --runs N      timed runs of each executable (default 5), interleaved
                baseline, popcorn, baseline, popcorn, ...; medians are reported
  --callgrind   also count executed instructions with valgrind --tool=callgrind
                (one run each, smaller size argument); deterministic
  --only LIST   run only these benchmarks (comma-separated names)
Environment: CLANG (clang-19), LLD (ld.lld-19), READELF (llvm-readelf-19),
             VALGRIND (valgrind), COMPILES (3: compiles timed per build)
EOF
  exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -*) usage ;; esac
BUILD=$1
shift
RUNS=5
CALLGRIND=0
ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; RUNS=$2; shift 2 ;;
    --runs=*) RUNS=${1#--runs=}; shift ;;
    --callgrind) CALLGRIND=1; shift ;;
    --only) [ $# -ge 2 ] || usage; ONLY=$2; shift 2 ;;
    --only=*) ONLY=${1#--only=}; shift ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$RUNS" in ''|*[!0-9]*|0) echo "run.sh: --runs needs a positive integer" >&2; exit 2 ;; esac

CLANG=${CLANG:-clang-19}
LLD=${LLD:-ld.lld-19}
READELF=${READELF:-llvm-readelf-19}
VALGRIND=${VALGRIND:-valgrind}
COMPILES=${COMPILES:-3}

SRC_DIR=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$BUILD" && pwd) || { echo "run.sh: no build directory '$1'" >&2; exit 2; }
POPCC=$BUILD/bin/popcorn-clang
INSPECT=$BUILD/bin/popcorn-inspect
SYSROOT=$BUILD/lib/popcorn/x86_64
OUT=$BUILD/bench
WORK=$OUT/work
RESULTS=$OUT/results.txt

for tool in "$POPCC" "$INSPECT"; do
  [ -x "$tool" ] || { echo "run.sh: missing $tool (build the project first)" >&2; exit 1; }
done
for f in crt1.o crti.o crtn.o libc.a libpopcorn-builtins.a; do
  [ -f "$SYSROOT/lib/$f" ] || { echo "run.sh: missing sysroot file lib/$f" >&2; exit 1; }
done
need=("$CLANG" "$LLD" "$READELF")
[ "$CALLGRIND" = 1 ] && need+=("$VALGRIND")
for tool in "${need[@]}"; do
  command -v "$tool" >/dev/null || { echo "run.sh: '$tool' not found" >&2; exit 1; }
done
RESOURCE_DIR=$("$CLANG" -print-resource-dir)

# name and size argument for the callgrind run (the timed runs use each
# program's default size, chosen to run ~0.3-1 s natively).
BENCHMARKS="
bintree 12
hashtab 400000
interp 6000
mandel 500
matmul 300
nbody 300000
qsortcb 100000
recurse 33
sieve 10000
spectral 800
strsearch 2048
"

mkdir -p "$WORK" || exit 1

# Microseconds since the epoch, without forking (bash 5).
now_us() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "NA"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Sum of the sizes of the executable (SHF_EXECINSTR) sections of an ELF file.
exec_bytes() {
  local total=0 size
  while read -r size; do
    total=$((total + 16#$size))
  done < <("$READELF" -S -W "$1" | awk '
    /^ *\[ *[0-9]+\]/ {
      sub(/^ *\[ *[0-9]+\] */, "")
      # Name Type Address Off Size ES Flg ...
      if ($7 ~ /X/) print $5
    }')
  echo "$total"
}

build_base() { # src out
  "$CLANG" --target=x86_64-linux-musl -nostdinc -isystem "$SYSROOT/include" \
    -isystem "$RESOURCE_DIR/include" -mlong-double-128 -O2 -c "$1" -o "$2.o" &&
    "$LLD" -static -o "$2" "$SYSROOT/lib/crt1.o" "$SYSROOT/lib/crti.o" "$2.o" \
      --start-group "$SYSROOT/lib/libc.a" "$SYSROOT/lib/libpopcorn-builtins.a" --end-group \
      "$SYSROOT/lib/crtn.o"
}

build_pop() { # src out
  "$POPCC" -O2 "$1" -o "$2"
}

# Time one command (stdout and stderr appended to $LOG); prints wall-clock
# microseconds or FAIL.
time_cmd() {
  local t0 t1
  t0=$(now_us)
  if "$@" >>"$LOG" 2>&1; then
    t1=$(now_us)
    echo $((t1 - t0))
  else
    echo FAIL
  fi
}

# Run an executable, output discarded; prints "CPU_us WALL_us" (CPU = user +
# sys of the process, from bash's time keyword, millisecond resolution) or
# "FAIL".
run_time() {
  local TIMEFORMAT='%3U %3S %3R' out u s r
  out=$({ time "$@" >/dev/null 2>&1; } 2>&1) || { echo FAIL; return; }
  read -r u s r <<<"$out"
  awk -v u="$u" -v s="$s" -v r="$r" 'BEGIN { printf "%.0f %.0f\n", (u + s) * 1e6, r * 1e6 }'
}

callgrind_ir() { # out-prefix exe arg
  local f=$1.callgrind
  rm -f "$f"
  "$VALGRIND" --tool=callgrind --callgrind-out-file="$f" "$2" "$3" >"$1.cgout" 2>"$1.cglog" ||
    { echo FAIL; return; }
  awk '/^summary:/ { print $2; found = 1 } END { if (!found) print "FAIL" }' "$f"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.3f", a / b; else print "-" }'; }

rows=()      # name|check|base_us|pop_us|base_wall|pop_wall|base_ir|pop_ir|base_text|pop_text|base_obj|pop_obj|base_cc|pop_cc
status=0
t_start=$(now_us)

while read -r name cgarg; do
  [ -n "$name" ] || continue
  if [ -n "$ONLY" ] && [[ ",$ONLY," != *",$name,"* ]]; then continue; fi
  src=$SRC_DIR/$name.c
  base=$WORK/$name.base
  pop=$WORK/$name.pop
  LOG=$WORK/$name.log
  : >"$LOG"
  echo "== $name" >&2

  # Compile: COMPILES times each, interleaved; median wall-clock.
  bcc=() pcc=()
  for ((i = 0; i < COMPILES; i++)); do
    rm -f "$base" "$base.o" "$pop"
    bcc+=("$(time_cmd build_base "$src" "$base")")
    pcc+=("$(time_cmd build_pop "$src" "$pop")")
  done
  if [[ " ${bcc[*]} ${pcc[*]} " == *" FAIL "* ]]; then
    echo "   build FAILED (see $LOG)" >&2
    rows+=("$name|BUILD-FAIL|-|-|-|-|-|-|-|-|-|-|-|-")
    status=1
    continue
  fi
  base_cc=$(printf '%s\n' "${bcc[@]}" | median)
  pop_cc=$(printf '%s\n' "${pcc[@]}" | median)

  # The plain x86-64 image of the multi-ISA file, and the benchmark's own
  # x86-64 object code (popcorn objects carry the aarch64 object in a
  # non-executable section).
  "$INSPECT" extract --isa x86_64 "$pop" "$pop.x86" >>"$LOG" 2>&1 || { echo "   extract FAILED" >&2; status=1; }
  "$POPCC" -O2 -c "$src" -o "$pop.o" >>"$LOG" 2>&1 || { echo "   popcorn -c FAILED" >&2; status=1; }
  base_text=$(exec_bytes "$base")
  pop_text=$(exec_bytes "$pop.x86")
  base_obj=$(exec_bytes "$base.o")
  pop_obj=$(exec_bytes "$pop.o")

  # Correctness: baseline, multi-ISA file and extracted image print the same.
  check=ok
  "$base" >"$WORK/$name.base.out" 2>&1 || check=FAIL
  "$pop" >"$WORK/$name.pop.out" 2>&1 || check=FAIL
  "$pop.x86" >"$WORK/$name.x86.out" 2>&1 || check=FAIL
  if [ "$check" = ok ]; then
    cmp -s "$WORK/$name.base.out" "$WORK/$name.pop.out" &&
      cmp -s "$WORK/$name.base.out" "$WORK/$name.x86.out" || check=DIFF
  fi
  [ "$check" = ok ] || { echo "   output check: $check" >&2; status=1; }

  # Timed runs, interleaved.
  bt=() pt=()
  for ((i = 0; i < RUNS; i++)); do
    bt+=("$(run_time "$base")")
    pt+=("$(run_time "$pop")")
  done
  if [[ " ${bt[*]} ${pt[*]} " == *" FAIL "* ]]; then
    echo "   a timed run FAILED" >&2
    check=FAIL
    status=1
  fi
  base_us=$(printf '%s\n' "${bt[@]}" | awk '$1 != "FAIL" { print $1 }' | median)
  pop_us=$(printf '%s\n' "${pt[@]}" | awk '$1 != "FAIL" { print $1 }' | median)
  base_wall=$(printf '%s\n' "${bt[@]}" | awk '$1 != "FAIL" { print $2 }' | median)
  pop_wall=$(printf '%s\n' "${pt[@]}" | awk '$1 != "FAIL" { print $2 }' | median)

  base_ir=- pop_ir=-
  if [ "$CALLGRIND" = 1 ]; then
    base_ir=$(callgrind_ir "$WORK/$name.base" "$base" "$cgarg")
    pop_ir=$(callgrind_ir "$WORK/$name.pop" "$pop" "$cgarg")
    if ! cmp -s "$WORK/$name.base.cgout" "$WORK/$name.pop.cgout"; then
      echo "   output check (callgrind size): DIFF" >&2
      check=DIFF
      status=1
    fi
    [ "$base_ir" != FAIL ] && [ "$pop_ir" != FAIL ] || { check=CG-FAIL; status=1; }
  fi
  echo "   cpu ${base_us}/${pop_us} us, wall ${base_wall}/${pop_wall} us, Ir ${base_ir}/${pop_ir}, text ${base_text}/${pop_text}, cc ${base_cc}/${pop_cc} us, $check" >&2
  rows+=("$name|$check|$base_us|$pop_us|$base_wall|$pop_wall|$base_ir|$pop_ir|$base_text|$pop_text|$base_obj|$pop_obj|$base_cc|$pop_cc")
done <<<"$BENCHMARKS"

t_end=$(now_us)
[ ${#rows[@]} -gt 0 ] || { echo "run.sh: no benchmark selected" >&2; exit 2; }

rev=$(git -C "$SRC_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && [ -n "$(git -C "$SRC_DIR" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  rev="$rev+dirty"
fi
cg_note="no (pass --callgrind)"
[ "$CALLGRIND" = 1 ] && cg_note="yes (valgrind callgrind, one run, size from run.sh)"

{
  echo "Popcorn benchmarks: popcorn-clang -O2 (multi-ISA file, run on x86-64) vs clang-19 -O2 (x86-64 musl, static)"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  source: $rev  host: $(uname -m), $(nproc) cpus"
  echo "runs: $RUNS interleaved (median)  compiles: $COMPILES (median)  instruction counts: $cg_note"
  echo
  printf '%s\n' "${rows[@]}" | awk -F'|' '
    function r(a, b) { return (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) ? a / b : "" }
    function fmt(x) { return x == "" ? "-" : sprintf("%.3f", x) }
    function acc(col, x) { if (x != "") { lg[col] += log(x); n[col]++ } }
    function gm(col) { return n[col] ? sprintf("%.3f", exp(lg[col] / n[col])) : "-" }
    function ms(us) { return us ~ /^[0-9.]+$/ ? sprintf("%.0f", us / 1000) : "-" }
    function mir(x) { return x ~ /^[0-9]+$/ ? sprintf("%.1f", x / 1e6) : "-" }
    BEGIN {
      hdr = "%-10s %-6s | %7s %7s %7s %7s | %8s %8s %7s | %7s %7s %7s | %6s %6s %7s | %6s %6s %7s\n"
      h1 = sprintf(hdr, "benchmark", "check", "base ms", "pop ms", "cpu x", "wall x", "base MIr", "pop MIr", "Ir x", \
        "text B", "text B", "text x", "obj B", "obj B", "obj x", "cc ms", "cc ms", "cc x")
      printf "%s", h1
      h2 = sprintf(hdr, "", "", "cpu", "cpu", "", "", "", "", "", "base", "pop", "", "base", "pop", "", "base", "pop", "")
      sub(/ *\n$/, "", h2)
      print h2
      line = h1
      sub(/\n$/, "", line)
      gsub(/./, "-", line)
      print line
    }
    {
      t = r($4, $3); w = r($6, $5); i = r($8, $7); x = r($10, $9); o = r($12, $11); c = r($14, $13)
      acc(1, t); acc(2, i); acc(3, x); acc(4, o); acc(5, c); acc(6, w)
      printf hdr, $1, $2, ms($3), ms($4), fmt(t), fmt(w), mir($7), mir($8), fmt(i), $9, $10, fmt(x), $11, $12, fmt(o), ms($13), ms($14), fmt(c)
    }
    END {
      print line
      printf hdr, "geomean", "", "", "", gm(1), gm(6), "", "", gm(2), "", "", gm(3), "", "", gm(4), "", "", gm(5)
    }'
  echo
  echo "x = popcorn / baseline (lower is better for popcorn; 1.000 = parity)."
  echo "ms, cpu x: median CPU time (user+sys) of the runs at the default size; wall x: the same for wall-clock time;"
  echo "Ir: instructions executed (callgrind, one run, smaller size);"
  echo "text: bytes of executable sections of the whole x86-64 image (popcorn: extracted image, incl. alignment padding"
  echo "for the aarch64 code and the popcorn runtime); obj: x86-64 code bytes of the benchmark's own object file;"
  echo "cc: median wall-clock of source -> executable (popcorn builds both ISAs and links twice)."
  echo "total benchmark time: $(((t_end - t_start) / 1000000)) s"
} | tee "$RESULTS"

echo "(written to BUILD_DIR/bench/results.txt)" >&2
exit $status
