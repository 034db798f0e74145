#!/usr/bin/env bash
# What one multi-ISA file costs on disk compared with what it replaces: one
# stock static executable per ISA.  For each program, the popcorn-clang -O2
# file (x86-64 and aarch64 images) against the SUM of a stock x86-64 and a
# stock aarch64 executable (clang-19 -O2 -static, Debian's unmodified musl
# and libgcc: bench/stock.sh), as linked and stripped (-s).
#
#   bench/size.sh BUILD_DIR [--all]
#
# Rows: hello world, the largest program of tests/programs and the largest
# benchmark of bench/ ("largest": the biggest stock x86-64 executable); with
# --all, every program (but those using <popcorn.h> or <migrate.h>).  The table goes to stdout and
# BUILD_DIR/bench/size.txt, work files to BUILD_DIR/bench/size-work.
set -u

usage() {
  cat >&2 <<'EOF'
usage: bench/size.sh BUILD_DIR [--all]
  --all   a row for every program of tests/programs and bench/, not only
          hello world and the largest of each
Environment: CLANG (clang-19), LLD (ld.lld-19), STRIP (llvm-strip-19),
             STOCK_MUSL_{INCLUDE,LIB}_{x86_64,aarch64}, STOCK_LIBGCC_{x86_64,aarch64}
             (Debian's musl-dev and libgcc paths; see bench/stock.sh)
EOF
  exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -*) usage ;; esac
BUILD=$1
shift
ALL=0
while [ $# -gt 0 ]; do
  case "$1" in
    --all) ALL=1; shift ;;
    -h|--help) usage ;;
    *) echo "size.sh: unknown argument '$1'" >&2; usage ;;
  esac
done

CLANG=${CLANG:-clang-19}
LLD=${LLD:-ld.lld-19}
STRIP=${STRIP:-llvm-strip-19}
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$SRC_DIR/.." && pwd)
BUILD=$(cd "$BUILD" && pwd) || { echo "size.sh: no build directory '$1'" >&2; exit 2; }
POPCC=$BUILD/bin/popcorn-clang
WORK=$BUILD/bench/size-work
RESULTS=$BUILD/bench/size.txt

[ -x "$POPCC" ] || { echo "size.sh: missing $POPCC (build the project first)" >&2; exit 1; }
for tool in "$CLANG" "$LLD" "$STRIP"; do
  command -v "$tool" >/dev/null || { echo "size.sh: '$tool' not found" >&2; exit 1; }
done
. "$SRC_DIR/stock.sh"
stock_init x86_64 || exit 1
# Without Debian's aarch64 musl (musl-dev:arm64), the project's own aarch64
# musl stands in, and the table says so.
stock_init aarch64 "$BUILD/lib/popcorn/aarch64" || exit 1

mkdir -p "$WORK" || exit 1
LOG=$WORK/build.log
: >"$LOG"

cat >"$WORK/hello.c" <<'EOF'
#include <stdio.h>

int main(void) {
  printf("hello, world\n");
  return 0;
}
EOF

file_bytes() { wc -c <"$1" | tr -d ' '; }

# The stock x86-64 executable of SRC as WORK/ID.x86_64; its size, or FAIL.
stock_x86_size() { # id src
  if stock_build x86_64 "$2" "$WORK/$1.x86_64" >>"$LOG" 2>&1; then
    file_bytes "$WORK/$1.x86_64"
  else
    echo FAIL
  fi
}

# Programs that use Popcorn's own API (bench/migration.c) have no stock
# build to compare with.
portable() { # src
  ! grep -Eq '^#include <(popcorn|migrate)\.h>' "$1"
}

# The largest program of a list, by its stock x86-64 executable: "id src".
largest() { # prefix src...
  local prefix=$1 best="" best_size=-1 src id size
  shift
  for src in "$@"; do
    portable "$src" || continue
    id=$prefix-$(basename "$src" .c)
    size=$(stock_x86_size "$id" "$src")
    [ "$size" = FAIL ] && { echo "size.sh: stock build of $src failed (see $LOG)" >&2; continue; }
    [ "$size" -gt "$best_size" ] && best="$id $src" best_size=$size
  done
  echo "$best"
}

programs=("hello $WORK/hello.c")
if [ "$ALL" = 1 ]; then
  for src in "$TOP"/tests/programs/*.c; do
    portable "$src" && programs+=("test-$(basename "$src" .c) $src")
  done
  for src in "$SRC_DIR"/*.c; do
    portable "$src" && programs+=("bench-$(basename "$src" .c) $src")
  done
else
  programs+=("$(largest test "$TOP"/tests/programs/*.c)" "$(largest bench "$SRC_DIR"/*.c)")
fi

rows=()
status=0
for p in "${programs[@]}"; do
  read -r id src <<<"$p"
  [ -n "$id" ] || continue
  echo "== $id" >&2
  # A test program's own popcorn flags (// POPCORN-FLAGS: ...).
  flags=$(sed -n 's,^// POPCORN-FLAGS: *,,p' "$src")
  w=$WORK/$id
  ok=1
  for isa in x86_64 aarch64; do
    stock_build "$isa" "$src" "$w.$isa" >>"$LOG" 2>&1 &&
      "$STRIP" --strip-all -o "$w.$isa.s" "$w.$isa" >>"$LOG" 2>&1 || ok=0
  done
  # shellcheck disable=SC2086 # flags are words
  "$POPCC" -O2 $flags "$src" -o "$w.pop" >>"$LOG" 2>&1 &&
    "$POPCC" -O2 -s $flags "$src" -o "$w.pop.s" >>"$LOG" 2>&1 || ok=0
  if [ "$ok" = 0 ]; then
    echo "   build FAILED (see $LOG)" >&2
    status=1
    continue
  fi
  row="$id"
  for f in "$w.x86_64" "$w.aarch64" "$w.pop" "$w.x86_64.s" "$w.aarch64.s" "$w.pop.s"; do
    row+=" $(file_bytes "$f")"
  done
  rows+=("$row")
done
[ ${#rows[@]} -gt 0 ] || { echo "size.sh: nothing built" >&2; exit 1; }

rev=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && [ -n "$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  rev="$rev+dirty"
fi
{
  echo "Popcorn file size: one popcorn-clang -O2 multi-ISA file vs two stock static executables"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')  source: $rev"
  echo "stock: clang-19 -O2 -static, libgcc; x86-64: $STOCK_NOTE_x86_64; aarch64: $STOCK_NOTE_aarch64"
  echo
  printf '%s\n' "${rows[@]}" | awk '
    function r(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "-" }
    BEGIN {
      f = "%-18s | %9s %9s %9s %9s %7s %7s | %9s %9s %7s\n"
      printf f, "program", "x86-64", "aarch64", "sum", "popcorn", "pop /", "pop /", "sum", "popcorn", "pop /"
      printf f, "", "stock", "stock", "stock", "", "sum", "x86-64", "-s", "-s", "sum"
      rule = sprintf(f, "", "", "", "", "", "", "", "", "", ""); gsub(/./, "-", rule); sub(/-$/, "", rule)
      print rule
    }
    {
      sum = $2 + $3; ssum = $5 + $6
      printf f, $1, $2, $3, sum, $4, r($4, sum), r($4, $2), ssum, $7, r($7, ssum)
    }'
  echo
  echo "Bytes of each file.  sum: x86-64 stock + aarch64 stock, what one executable per ISA takes;"
  echo "popcorn: the multi-ISA file (the x86-64 image carrying the aarch64 image);"
  echo "-s: stripped (stock: llvm-strip --strip-all; popcorn: popcorn-clang -s, both images)."
  echo "Largest: the biggest stock x86-64 executable among tests/programs/*.c and among bench/*.c."
} | tee "$RESULTS"
exit $status
