#!/bin/sh
# examples/run-demo.sh on a build whose "compiler" makes a program that
# prints the demo's lines either way but fails when it stays home: the
# demo must fail, not compare the outputs and pass.
#
#   run-demo-home-fails.sh WORK_DIR
set -eu
work=$1
rm -rf "$work"
mkdir -p "$work/bin"
cat >"$work/bin/popcorn-clang" <<'CC'
#!/bin/sh
# Writes, as the -o file, a program standing in for examples/migrate.c.
while [ $# -gt 0 ]; do
	[ "$1" = -o ] && out=$2
	shift
done
cat >"$out" <<'PROG'
#!/bin/sh
echo "start                 : energy 1"
if [ "${POPCORN_NODES:-}" = 0:x86_64:native ]; then
	echo "after moving to node 1: energy 1"
	exit 3
fi
echo "after moving to node 1 on node 1 (aarch64): energy 1"
PROG
chmod +x "$out"
CC
chmod +x "$work/bin/popcorn-clang"
exec "$(dirname "$0")/../../examples/run-demo.sh" "$work"
