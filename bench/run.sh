#!/usr/bin/env bash
# Compare popcorn-clang -O2 (multi-ISA executable, run on x86-64) with two
# baselines on x86-64, both clang-19 -O2, static:
#   stock: Debian's unmodified musl (musl-dev) and libgcc: what a user gets
#          without Popcorn; the headline comparison;
#   same:  Popcorn's own patched x86-64 musl and builtins: isolates what the
#          compiler and the runtime add.
# C++ benchmarks (*.cpp) are compared in the same way, with LLVM 19's
# libc++: stock's built unpatched by clang-19 against the same Debian musl
# (stock.sh), same's Popcorn's own.  See bench/README.md.
#
#   bench/run.sh BUILD_DIR [--runs N] [--callgrind] [--only a,b,...]
#
# Writes its work files under BUILD_DIR/bench/work and the tables to
# BUILD_DIR/bench/results.txt.
set -u

usage() {
  cat >&2 <<'EOF'
usage: bench/run.sh BUILD_DIR [--runs N] [--callgrind] [--only NAME,NAME,...]
  --runs N      timed runs of each executable (default 5), interleaved
                stock, same, popcorn, stock, same, popcorn, ...; medians are
                reported
  --callgrind   also count executed instructions with valgrind --tool=callgrind
                (one run each, smaller size argument); deterministic
  --only LIST   run only these benchmarks (comma-separated names)
Environment: CLANG (clang-19), CLANGXX (clang++-19), LLD (ld.lld-19), READELF (llvm-readelf-19),
             VALGRIND (valgrind), COMPILES (3: compiles timed per build),
             STOCK_MUSL_INCLUDE_x86_64, STOCK_MUSL_LIB_x86_64,
             STOCK_LIBGCC_x86_64 (Debian's musl-dev and libgcc paths),
             LIBCXX_SRC (llvm-toolchain-19 source an earlier build fetched;
             default BUILD_DIR/libcxx/src if there)
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
CLANGXX=${CLANGXX:-clang++-19}
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

for tool in "$POPCC" "$POPCC++" "$INSPECT"; do
  [ -x "$tool" ] || { echo "run.sh: missing $tool (build the project first)" >&2; exit 1; }
done
for f in crt1.o crti.o crtn.o libc.a libpopcorn-builtins.a; do
  [ -f "$SYSROOT/lib/$f" ] || { echo "run.sh: missing sysroot file lib/$f" >&2; exit 1; }
done
need=("$CLANG" "$CLANGXX" "$LLD" "$READELF")
[ "$CALLGRIND" = 1 ] && need+=("$VALGRIND")
for tool in "${need[@]}"; do
  command -v "$tool" >/dev/null || { echo "run.sh: '$tool' not found" >&2; exit 1; }
done
RESOURCE_DIR=$("$CLANG" -print-resource-dir)
. "$SRC_DIR/stock.sh"
stock_init x86_64 || { echo "run.sh: the stock baseline needs Debian's musl-dev (scripts/install-deps.sh)" >&2; exit 1; }

# name and size argument for the callgrind run (the timed runs use each
# program's default size, chosen to run ~0.3-1 s natively).
BENCHMARKS="
bintree 12
db 20000
hashtab 400000
interp 6000
mandel 500
matmul 300
nbody 300000
qsortcb 100000
recurse 33
shapes 200
sieve 10000
spectral 800
stl 3
strsearch 2048
throw 20000
vm 100000
"

selected() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; }

# The C++ benchmarks' stock baseline needs its libc++ (built once, ~5
# minutes on 2 cores).  The same-sysroot one links Popcorn's libc++, which
# uses three symbols of the Popcorn runtime (itself linkable only by
# popcorn-ld): a stand-in (no-runtime.c, below) defines them.
CXX_WANTED=0
while read -r name _; do
  [ -n "$name" ] && [ -f "$SRC_DIR/$name.cpp" ] && selected "$name" && CXX_WANTED=1
done <<<"$BENCHMARKS"
if [ "$CXX_WANTED" = 1 ]; then
  for f in libc++.a libc++abi.a libunwind.a; do
    [ -f "$SYSROOT/lib/$f" ] || { echo "run.sh: missing sysroot file lib/$f" >&2; exit 1; }
  done
  [ -n "${LIBCXX_SRC:-}" ] || [ ! -d "$BUILD/libcxx/src" ] || export LIBCXX_SRC=$BUILD/libcxx/src
  echo "== stock libc++ (into BUILD_DIR/bench/stock-libcxx)" >&2
  stock_cxx_init "$OUT/stock-libcxx" || { echo "run.sh: cannot build the stock libc++" >&2; exit 1; }
fi

mkdir -p "$WORK" || exit 1
if [ "$CXX_WANTED" = 1 ]; then
  # The migration points' flag stays 0, so their function is never called;
  # emulated TLS (libc++abi's exception globals) for one thread.
  cat >"$WORK/no-runtime.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
int __popcorn_migration_pending;
void __popcorn_migration_point(void) {}
struct emutls_control { size_t size, align; void *object; const void *init; };
void *__emutls_get_address(struct emutls_control *c) {
  if (!c->object) {
    c->object = aligned_alloc(c->align, (c->size + c->align - 1) / c->align * c->align);
    if (c->init) memcpy(c->object, c->init, c->size);
    else memset(c->object, 0, c->size);
  }
  return c->object;
}
EOF
  "$CLANG" --target=x86_64-linux-musl -nostdinc -isystem "$SYSROOT/include" \
    -isystem "$RESOURCE_DIR/include" -mlong-double-128 -O2 -c "$WORK/no-runtime.c" -o "$WORK/no-runtime.o" ||
    { echo "run.sh: cannot compile the runtime's stand-in" >&2; exit 1; }
fi

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

file_bytes() { wc -c <"$1" | tr -d ' '; }

build_stock() { # src out
  case $1 in
    *.cpp) stock_build_cxx "$1" "$2" ;;
    *) stock_build x86_64 "$1" "$2" ;;
  esac
}

build_same() { # src out
  case $1 in
    *.cpp)
      "$CLANGXX" --target=x86_64-linux-musl -nostdinc -nostdinc++ -isystem "$SYSROOT/include/c++/v1" \
        -isystem "$SYSROOT/include" -isystem "$RESOURCE_DIR/include" -mlong-double-128 -O2 \
        -c "$1" -o "$2.o" &&
        "$LLD" -static --eh-frame-hdr -o "$2" "$SYSROOT/lib/crt1.o" "$SYSROOT/lib/crti.o" "$2.o" \
          "$SYSROOT/lib/libc++.a" "$SYSROOT/lib/libc++abi.a" "$SYSROOT/lib/libunwind.a" \
          "$WORK/no-runtime.o" \
          --start-group "$SYSROOT/lib/libc.a" "$SYSROOT/lib/libpopcorn-builtins.a" --end-group \
          "$SYSROOT/lib/crtn.o"
      ;;
    *)
      "$CLANG" --target=x86_64-linux-musl -nostdinc -isystem "$SYSROOT/include" \
        -isystem "$RESOURCE_DIR/include" -mlong-double-128 -O2 -c "$1" -o "$2.o" &&
        "$LLD" -static -o "$2" "$SYSROOT/lib/crt1.o" "$SYSROOT/lib/crti.o" "$2.o" \
          --start-group "$SYSROOT/lib/libc.a" "$SYSROOT/lib/libpopcorn-builtins.a" --end-group \
          "$SYSROOT/lib/crtn.o"
      ;;
  esac
}

build_pop() { # src out
  case $1 in
    *.cpp) "$POPCC++" -O2 "$1" -o "$2" ;;
    *) "$POPCC" -O2 "$1" -o "$2" ;;
  esac
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

# Median of column COL (1: CPU, 2: wall) of "CPU WALL" lines, FAILs skipped.
median_col() { # col lines...
  local col=$1
  shift
  printf '%s\n' "$@" | awk -v c="$col" '$1 != "FAIL" { print $c }' | median
}

# One row per benchmark, fields separated by |; the tables below name them.
FIELDS="name chk_stock chk_same
  cpu_stock cpu_same cpu_pop wall_stock wall_same wall_pop
  ir_stock ir_same ir_pop
  file_stock file_same file_pop text_stock text_same text_pop obj_same obj_pop
  cc_stock cc_same cc_pop"
rows=()
status=0
t_start=$(now_us)

while read -r name cgarg; do
  [ -n "$name" ] || continue
  selected "$name" || continue
  src=$SRC_DIR/$name.c
  [ -f "$src" ] || src=$SRC_DIR/$name.cpp
  stock=$WORK/$name.stock
  same=$WORK/$name.same
  pop=$WORK/$name.pop
  LOG=$WORK/$name.log
  : >"$LOG"
  echo "== $name" >&2
  unset -v "${!r_@}"
  r_name=$name

  # Compile: COMPILES times each, interleaved; median wall-clock.
  scc=() bcc=() pcc=()
  for ((i = 0; i < COMPILES; i++)); do
    rm -f "$stock" "$stock.o" "$same" "$same.o" "$pop"
    scc+=("$(time_cmd build_stock "$src" "$stock")")
    bcc+=("$(time_cmd build_same "$src" "$same")")
    pcc+=("$(time_cmd build_pop "$src" "$pop")")
  done
  if [[ " ${scc[*]} ${bcc[*]} ${pcc[*]} " == *" FAIL "* ]]; then
    echo "   build FAILED (see $LOG)" >&2
    r_chk_stock=BUILD-FAIL r_chk_same=BUILD-FAIL
    row=""
    for f in $FIELDS; do v=r_$f; row+="${!v:--}|"; done
    rows+=("$row")
    status=1
    continue
  fi
  r_cc_stock=$(printf '%s\n' "${scc[@]}" | median)
  r_cc_same=$(printf '%s\n' "${bcc[@]}" | median)
  r_cc_pop=$(printf '%s\n' "${pcc[@]}" | median)

  # The plain x86-64 image of the multi-ISA file, and the benchmark's own
  # x86-64 object code (popcorn objects carry the aarch64 object in a
  # non-executable section).
  "$INSPECT" extract --isa x86_64 "$pop" "$pop.x86" >>"$LOG" 2>&1 || { echo "   extract FAILED" >&2; status=1; }
  "$POPCC" -O2 -c "$src" -o "$pop.o" >>"$LOG" 2>&1 || { echo "   popcorn -c FAILED" >&2; status=1; }
  r_file_stock=$(file_bytes "$stock")
  r_file_same=$(file_bytes "$same")
  r_file_pop=$(file_bytes "$pop")
  r_text_stock=$(exec_bytes "$stock")
  r_text_same=$(exec_bytes "$same")
  r_text_pop=$(exec_bytes "$pop.x86")
  r_obj_same=$(exec_bytes "$same.o")
  r_obj_pop=$(exec_bytes "$pop.o")

  # Correctness: every build prints the same.  The same-sysroot baseline is
  # compared with the multi-ISA file and its extracted image; the stock
  # baseline with the multi-ISA file (another libm may round differently).
  r_chk_stock=ok r_chk_same=ok
  "$stock" >"$WORK/$name.stock.out" 2>&1 || r_chk_stock=FAIL
  "$same" >"$WORK/$name.same.out" 2>&1 || r_chk_same=FAIL
  if ! "$pop" >"$WORK/$name.pop.out" 2>&1; then r_chk_stock=FAIL r_chk_same=FAIL; fi
  "$pop.x86" >"$WORK/$name.x86.out" 2>&1 || r_chk_same=FAIL
  if [ "$r_chk_stock" = ok ] && ! cmp -s "$WORK/$name.stock.out" "$WORK/$name.pop.out"; then
    r_chk_stock=DIFF
  fi
  if [ "$r_chk_same" = ok ]; then
    cmp -s "$WORK/$name.same.out" "$WORK/$name.pop.out" &&
      cmp -s "$WORK/$name.same.out" "$WORK/$name.x86.out" || r_chk_same=DIFF
  fi

  # Timed runs, interleaved.
  st=() bt=() pt=()
  for ((i = 0; i < RUNS; i++)); do
    st+=("$(run_time "$stock")")
    bt+=("$(run_time "$same")")
    pt+=("$(run_time "$pop")")
  done
  [[ " ${st[*]} ${pt[*]} " != *" FAIL "* ]] || r_chk_stock=FAIL
  [[ " ${bt[*]} ${pt[*]} " != *" FAIL "* ]] || r_chk_same=FAIL
  r_cpu_stock=$(median_col 1 "${st[@]}") r_wall_stock=$(median_col 2 "${st[@]}")
  r_cpu_same=$(median_col 1 "${bt[@]}") r_wall_same=$(median_col 2 "${bt[@]}")
  r_cpu_pop=$(median_col 1 "${pt[@]}") r_wall_pop=$(median_col 2 "${pt[@]}")

  if [ "$CALLGRIND" = 1 ]; then
    r_ir_stock=$(callgrind_ir "$WORK/$name.stock" "$stock" "$cgarg")
    r_ir_same=$(callgrind_ir "$WORK/$name.same" "$same" "$cgarg")
    r_ir_pop=$(callgrind_ir "$WORK/$name.pop" "$pop" "$cgarg")
    # Not the stock run's output: valgrind computes x87 long double (stock
    # musl's printf on x86-64) in double precision, so its last digits may
    # differ from a native run's.
    if [ "$r_chk_same" = ok ] && ! cmp -s "$WORK/$name.same.cgout" "$WORK/$name.pop.cgout"; then
      r_chk_same=DIFF
    fi
    [ "$r_ir_stock" != FAIL ] && [ "$r_ir_pop" != FAIL ] || r_chk_stock=CG-FAIL
    [ "$r_ir_same" != FAIL ] && [ "$r_ir_pop" != FAIL ] || r_chk_same=CG-FAIL
  fi
  # A stock DIFF alone is reported, not an error: Debian's libm may round
  # differently from the patched one.  Everything else is.
  case $r_chk_stock in ok|DIFF) ;; *) status=1 ;; esac
  [ "$r_chk_same" = ok ] || status=1
  [ "$r_chk_stock $r_chk_same" = "ok ok" ] || echo "   check: stock $r_chk_stock, same $r_chk_same" >&2
  echo "   cpu us stock/same/pop ${r_cpu_stock}/${r_cpu_same}/${r_cpu_pop}," \
    "Ir ${r_ir_stock:--}/${r_ir_same:--}/${r_ir_pop:--}," \
    "file ${r_file_stock}/${r_file_same}/${r_file_pop}, cc us ${r_cc_stock}/${r_cc_same}/${r_cc_pop}" >&2
  row=""
  for f in $FIELDS; do v=r_$f; row+="${!v:--}|"; done
  rows+=("$row")
done <<<"$BENCHMARKS"

t_end=$(now_us)
[ ${#rows[@]} -gt 0 ] || { echo "run.sh: no benchmark selected" >&2; exit 2; }

rev=$(git -C "$SRC_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && [ -n "$(git -C "$SRC_DIR" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  rev="$rev+dirty"
fi
cg_note="no (pass --callgrind)"
[ "$CALLGRIND" = 1 ] && cg_note="yes (valgrind callgrind, one run, size from run.sh)"

# Prints a table from the rows.  COLS lists its column groups:
#   check:F        a text column of field F
#   cpu:A:B:W      A and B in ms (median CPU time), ratio B/A; W (two fields,
#                  comma-separated): the ratio of their wall-clock times too
#   cc:A:B         compile times in ms, ratio B/A
#   mir:A:B        A and B in millions, ratio B/A
#   bytes:A:B      A and B as they are, ratio B/A
# with A the baseline's field and B popcorn's.  The last row is the
# geometric mean of every ratio column.
table() { # base-label cols...
  local label=$1
  shift
  printf '%s\n' "${rows[@]}" | awk -F'|' -v fields="$FIELDS" -v cols="$*" -v base="$label" '
    function r(a, b) { return (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && a > 0) ? b / a : "" }
    function fmt(x) { return x == "" ? "-" : sprintf("%.3f", x) }
    function ms(us) { return us ~ /^[0-9.]+$/ ? sprintf("%.0f", us / 1000) : "-" }
    function mir(x) { return x ~ /^[0-9]+$/ ? sprintf("%.1f", x / 1e6) : "-" }
    function cell(s, w) { line1 = line1 sprintf(" %*s", w, s) }
    function head(a, b, w) { h1 = h1 sprintf(" %*s", w, a); h2 = h2 sprintf(" %*s", w, b) }
    function ratio(k, x) { cell(fmt(x), 7); if (x != "") { lg[k] += log(x); n[k]++ } }
    BEGIN {
      nf = split(fields, fname, /[ \n]+/)
      for (i = 1; i <= nf; i++) idx[fname[i]] = i
      nc = split(cols, col, / +/)
      h1 = sprintf("%-10s", "benchmark"); h2 = sprintf("%-10s", "")
      for (c = 1; c <= nc; c++) {
        split(col[c], p, ":")
        kind[c] = p[1]; a[c] = p[2]; b[c] = p[3]; wall[c] = p[4]
        if (kind[c] == "check") { h1 = h1 sprintf(" %-6s", "check"); h2 = h2 sprintf(" %-6s", "") ; continue }
        h1 = h1 " |"; h2 = h2 " |"
        if (kind[c] == "cpu") {
          head(base " ms", "cpu", 8); head("pop ms", "cpu", 8); head("cpu x", "", 7)
          if (wall[c] != "") head("wall x", "", 7)
        } else if (kind[c] == "cc") {
          head(base " ms", "cc", 8); head("pop ms", "cc", 8); head("cc x", "", 7)
        } else if (kind[c] == "mir") {
          head(base " MIr", "", 9); head("pop MIr", "", 9); head("Ir x", "", 7)
        } else {
          split(b[c], q, "_")
          head(q[1] " B", base, 9); head(q[1] " B", "pop", 9); head(q[1] " x", "", 7)
        }
      }
      print h1
      sub(/ +$/, "", h2); print h2
      rule = h1; gsub(/./, "-", rule); print rule
    }
    {
      line1 = sprintf("%-10s", $(idx["name"]))
      for (c = 1; c <= nc; c++) {
        if (kind[c] == "check") { line1 = line1 sprintf(" %-6s", $(idx[a[c]])); continue }
        va = $(idx[a[c]]); vb = $(idx[b[c]])
        line1 = line1 " |"
        if (kind[c] == "cpu" || kind[c] == "cc") {
          cell(ms(va), 8); cell(ms(vb), 8); ratio(c, r(va, vb))
          if (wall[c] != "") { split(wall[c], w, ","); ratio(c "w", r($(idx[w[1]]), $(idx[w[2]]))) }
        } else if (kind[c] == "mir") {
          cell(mir(va), 9); cell(mir(vb), 9); ratio(c, r(va, vb))
        } else {
          cell(va, 9); cell(vb, 9); ratio(c, r(va, vb))
        }
      }
      print line1
    }
    function gm(k) { return n[k] ? sprintf("%.3f", exp(lg[k] / n[k])) : "-" }
    END {
      print rule
      line1 = sprintf("%-10s", "geomean")
      for (c = 1; c <= nc; c++) {
        if (kind[c] == "check") { line1 = line1 sprintf(" %-6s", ""); continue }
        line1 = line1 " |"
        if (kind[c] == "cpu" || kind[c] == "cc") {
          cell("", 8); cell("", 8); cell(gm(c), 7)
          if (wall[c] != "") cell(gm(c "w"), 7)
        } else { cell("", 9); cell("", 9); cell(gm(c), 7) }
      }
      print line1
    }'
}

{
  echo "Popcorn benchmarks: popcorn-clang -O2 (multi-ISA file, run on x86-64) vs clang-19 -O2 -static on x86-64"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  source: $rev  host: $(uname -m), $(nproc) cpus"
  echo "runs: $RUNS interleaved (median)  compiles: $COMPILES (median)  instruction counts: $cg_note"
  echo
  echo "1. vs stock: clang-19 -O2 -static, unmodified musl: $STOCK_NOTE_x86_64, and libgcc"
  echo
  table stock check:chk_stock cpu:cpu_stock:cpu_pop:wall_stock,wall_pop mir:ir_stock:ir_pop \
    bytes:file_stock:file_pop cc:cc_stock:cc_pop
  echo
  echo "2. vs same sysroot: clang-19 -O2 -static, Popcorn's patched x86-64 musl and builtins"
  echo
  table same check:chk_same cpu:cpu_same:cpu_pop:wall_same,wall_pop mir:ir_same:ir_pop \
    bytes:text_same:text_pop bytes:obj_same:obj_pop cc:cc_same:cc_pop
  echo
  echo "x = popcorn / baseline (lower is better for popcorn; 1.000 = parity)."
  echo "ms, cpu x: median CPU time (user+sys) of the runs at the default size; wall x: the same for wall-clock time;"
  echo "Ir: instructions executed (callgrind, one run, smaller size);"
  echo "file: bytes of the executable file (popcorn: the multi-ISA file, x86-64 and aarch64 images);"
  echo "text: bytes of executable sections of the whole x86-64 image (popcorn: extracted image, incl. alignment padding"
  echo "for the aarch64 code and the popcorn runtime); obj: x86-64 code bytes of the benchmark's own object file;"
  echo "cc: median wall-clock of source -> executable (popcorn builds both ISAs and links twice)."
  echo "total benchmark time: $(((t_end - t_start) / 1000000)) s"
} | tee "$RESULTS"

echo "(written to BUILD_DIR/bench/results.txt)" >&2
exit $status
