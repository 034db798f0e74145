#!/bin/sh
# popcorn-clang links over an executable that is running, as ld does (ninja
# relinks itself while it runs): the link writes a new file, the running
# program goes on with the old one, and popcorn-inspect extract writes over
# a running aarch64 image the same way.
#
#   relink-running.sh BIN_DIR WORK_DIR CLANG
set -eu
. "$(dirname "$0")/../lib/runs.sh"
bin=$1 work=$2
enter_work_dir "$work"

fail() {
	echo "FAIL: $*"
	exit 1
}

cat >prog.c <<'END'
#include <stdio.h>
/* Says it runs, then waits for the end of its input. */
int main(void)
{
	printf("ready\n");
	fflush(stdout);
	while (getchar() != EOF)
		;
	printf("version %d\n", VERSION);
	return 0;
}
END

# start_waiting NAME COMMAND...: COMMAND runs in the background, its input
# the fifo NAME.in (held open on file descriptor 3 by the caller's shell
# after this returns), until it has said that it runs.
start_waiting() {
	name=$1
	shift
	rm -f "$name.in"
	mkfifo "$name.in"
	"$@" <"$name.in" >"$name.out" 2>&1 &
	pid=$!
	exec 3>"$name.in"
	tries=0
	until grep -q ready "$name.out" 2>/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt 300 ] || fail "$name did not start: $(cat "$name.out")"
		sleep 0.1
	done
}

# finish NAME EXPECTED: the waiting program ends; it printed EXPECTED.
finish() {
	exec 3>&-
	wait "$pid" || fail "$1 failed: $(cat "$1.out")"
	[ "$(tail -n 1 "$1.out")" = "$2" ] || fail "$1 printed '$(cat "$1.out")', not '$2'"
}

"$bin/popcorn-clang" -O2 -DVERSION=1 prog.c -o prog || fail "the first link"
start_waiting running ./prog
"$bin/popcorn-clang" -O2 -DVERSION=2 prog.c -o prog || fail "linking over the running program"
finish running "version 1"
[ "$(echo | ./prog | tail -n 1)" = "version 2" ] || fail "the new program is not version 2"
echo "ok: linked over the running program"

"$bin/popcorn-inspect" extract --isa aarch64 prog prog-aarch64 || fail "popcorn-inspect extract"
start_waiting running-aarch64 qemu-aarch64 ./prog-aarch64
"$bin/popcorn-clang" -O2 -DVERSION=3 prog.c -o prog || fail "the third link"
"$bin/popcorn-inspect" extract --isa aarch64 prog prog-aarch64 ||
	fail "extracting over the running aarch64 image"
finish running-aarch64 "version 2"
[ "$(echo | qemu-aarch64 ./prog-aarch64 | tail -n 1)" = "version 3" ] ||
	fail "the new aarch64 image is not version 3"
echo "ok: extracted over the running aarch64 image"
