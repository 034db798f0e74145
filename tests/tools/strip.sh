#!/bin/sh
# A multi-ISA program survives what packagers do to executables: GNU strip,
# strip --strip-debug, a separate debug file (objcopy --only-keep-debug,
# strip, objcopy --add-gnu-debuglink), the same with LLVM's tools, and
# popcorn-clang -s, and the linker told to strip (-Wl,-s, -Xlinker
# --strip-all: common LDFLAGS).  Each stripped program moves to aarch64 (node 1, under
# qemu) and back many times and prints what a native build prints; where
# the symbols went, at= still finds its function (by the aarch64 image's),
# and with none left it says so.
#
#   strip.sh BIN_DIR WORK_DIR CLANG
set -eu
. "$(dirname "$0")/../lib/runs.sh"
bin=$1 work=$2 clang=$3
src=$(cd "$(dirname "$0")" && pwd)/strip.c
enter_work_dir "$work"

fail() {
	echo "FAIL: $*"
	exit 1
}

"$clang" -O2 "$src" -o native || fail "the native build"
run native ./native
"$bin/popcorn-clang" -O2 -g "$src" -o prog || fail "popcorn-clang -O2 -g"
"$bin/popcorn-clang" -O2 -s "$src" -o prog-s || fail "popcorn-clang -O2 -s"
"$bin/popcorn-clang" -O2 -Wl,-s "$src" -o prog-wl-s || fail "popcorn-clang -O2 -Wl,-s"
"$bin/popcorn-clang" -O2 -Xlinker --strip-all "$src" -o prog-xlinker || fail "popcorn-clang -O2 -Xlinker --strip-all"

# How each copy of prog is stripped (one command line per copy, run in
# its directory).
cat >ways <<'WAYS'
strip prog
strip --strip-debug prog
objcopy --only-keep-debug prog prog.debug && strip prog && objcopy --add-gnu-debuglink=prog.debug prog
llvm-strip-19 prog
llvm-strip-19 --strip-debug prog
llvm-objcopy-19 --only-keep-debug prog prog.debug && llvm-strip-19 prog && llvm-objcopy-19 --add-gnu-debuglink=prog.debug prog
WAYS

# moves NAME PROG MIN SCHEDULE: PROG, moving on SCHEDULE, prints what the
# native build prints and leaves home at least MIN times.
moves() {
	name=$1 prog=$2 min=$3 schedule=$4
	run "$name" env POPCORN_LOG=stats POPCORN_MIGRATE="$schedule" "$prog"
	take_report "$name" "popcorn: migrations: "
	if ! cmp -s native.run "$name.run"; then
		echo "FAIL: $name with $schedule differs from the native run:"
		diff -u native.run "$name.run" || true
		exit 1
	fi
	count=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
	at_least "$name with $schedule" "$count" "$min" "fewer than $min trips away" || exit 1
	echo "ok: $name with $schedule: $report"
}

i=0
while IFS= read -r way; do
	i=$((i + 1))
	mkdir "$i"
	cp prog "$i/"
	(cd "$i" && eval "$way") || fail "$way"
	stripped=$i/prog
	if cmp -s prog "$stripped"; then
		fail "'$way' left the program as it was"
	fi
	case $way in
	*--strip-debug*) readelf -S "$stripped" | grep -q '\.debug_' && fail "'$way' left debug sections" ;;
	*) readelf -S "$stripped" | grep -q '\.symtab' && fail "'$way' left the symbol table" ;;
	esac
	echo "--- $way"
	moves "way$i" "$stripped" 4 'every=3;nodes=1,0'
	moves "way$i.at" "$stripped" 1 'at=round_of;nodes=1'
done <ways

echo "--- popcorn-clang -s, -Wl,-s, -Xlinker --strip-all"
for s in s wl-s xlinker; do
	readelf -S prog-$s | grep -q '\.symtab' && fail "prog-$s kept the symbol table"
	moves $s ./prog-$s 4 'every=3;nodes=1,0'
done
status=0
POPCORN_MIGRATE='at=round_of' ./prog-s >/dev/null 2>at.err || status=$?
if [ "$status" -ne 2 ] || ! grep -q 'at=round_of: the program has no symbols' at.err; then
	cat at.err
	fail "at= in a program without symbols: exit status $status, not 2 and a line that says so"
fi
echo "ok: at= without symbols: $(cat at.err)"
