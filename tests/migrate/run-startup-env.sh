#!/bin/sh
# The runtime reads its environment variables in one pass as a program
# starts: a hello world started with 2000 more variables executes fewer
# than 50 instructions (callgrind) more per variable.  (A getenv per
# setting read them all a dozen times: some 500 per variable.)  The
# variables begin with P, as PATH and PWD do, which the runtime's own
# begin with too.
#
#   run-startup-env.sh BUILD_DIR WORK_DIR
set -eu
if [ $# -ne 2 ]; then
	echo "usage: $0 BUILD_DIR WORK_DIR" >&2
	exit 2
fi
build=$1 work=$2
if ! command -v valgrind >/dev/null; then
	echo "SKIP: no valgrind"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cat >"$work/hello.c" <<'EOF2'
#include <stdio.h>

int main(void) {
  printf("hello, world\n");
  return 0;
}
EOF2
"$build/bin/popcorn-clang" -O2 "$work/hello.c" -o "$work/hello"

count=2000
padding=$(awk -v n=$count 'BEGIN { for (i = 0; i < n; i++) printf "PADDING_%d=value ", i }')

# instructions [VARIABLE=VALUE...]: what one run executes, by callgrind.
instructions() {
	out=$work/cg.$#
	if ! env "$@" valgrind --tool=callgrind --callgrind-out-file="$out" "$work/hello" \
		>"$out.stdout" 2>"$out.log"; then
		echo "FAIL: hello under valgrind" >&2
		cat "$out.log" >&2
		exit 1
	fi
	if [ "$(cat "$out.stdout")" != "hello, world" ]; then
		echo "FAIL: hello printed $(cat "$out.stdout")" >&2
		exit 1
	fi
	awk '/^summary:/ { print $2 }' "$out"
}

plain=$(instructions)
# shellcheck disable=SC2086 # one word per variable
padded=$(instructions $padding)
per=$(((padded - plain) / count))
echo "hello: $plain instructions; with $count more variables $padded, $per per variable"
if [ "$per" -ge 50 ]; then
	echo "FAIL: each environment variable costs $per instructions as the program starts"
	exit 1
fi
echo PASS
