#!/bin/sh
# examples/run-demo.sh on a build whose "compiler" makes a stand-in for
# examples/migrate.c that fails the demo's checks one way (MODE):
#   home-fails   prints the same lines either way, but fails staying home;
#   stays-away   never comes back: its last line is on node 1, and the
#                runtime's report counts one move;
#   stays-on-aarch64
#                home on aarch64, never leaves: node 1 is home's ISA;
#   any other    passes the demo (the stand-in itself is sound).
# The demo must fail, not compare the outputs and pass.  Its part home on
# aarch64 runs the stand-in's copy that popcorn-inspect extract makes
# (home aarch64, node 1 x86_64) through a qemu-aarch64 that runs it.
#
#   run-demo-stand-in.sh WORK_DIR MODE
set -eu
work=$1 mode=$2
rm -rf "$work"
mkdir -p "$work/bin"
cat >"$work/bin/popcorn-clang" <<CC
#!/bin/sh
while [ \$# -gt 0 ]; do
	[ "\$1" = -o ] && out=\$2
	shift
done
sed 's/@MODE@/$mode/' "$work/program" >"\$out"
chmod +x "\$out"
CC
cat >"$work/bin/popcorn-inspect" <<'INSPECT'
#!/bin/sh
[ "$1 $2 $3" = "extract --isa aarch64" ] || exit 2
sed 's/^home_isa=x86_64 other_isa=aarch64$/home_isa=aarch64 other_isa=x86_64/' "$4" >"$5"
chmod +x "$5"
INSPECT
cat >"$work/bin/qemu-aarch64" <<'QEMU'
#!/bin/sh
exec "$@"
QEMU
chmod +x "$work/bin/popcorn-inspect" "$work/bin/qemu-aarch64"
export PATH="$work/bin:$PATH"
cat >"$work/program" <<'PROG'
#!/bin/sh
home_isa=x86_64 other_isa=aarch64
home=no
[ "${POPCORN_NODES:-}" = 0:x86_64:native ] && home=yes
where() { [ $home = yes ] || echo " on node $1 ($2)"; }
[ @MODE@ = stays-on-aarch64 ] && [ $home_isa = aarch64 ] && other_isa=aarch64
echo "start                 $(where 0 $home_isa): energy 1"
echo "after moving to node 1$(where 1 $other_isa): energy 1"
if [ @MODE@ = stays-away ]; then
	echo "back at node 0        $(where 1 $other_isa): energy 1"
	echo "popcorn: migrations: 1 away from home (1 to node 1), 1 pages fetched in 1 requests" >&2
	exit 0
fi
echo "back at node 0        $(where 0 $home_isa): energy 1"
echo "popcorn: migrations: 1 away from home (1 to node 1), 1 pages fetched in 1 requests" >&2
[ @MODE@ != home-fails ] || [ $home = no ] || exit 3
PROG
chmod +x "$work/bin/popcorn-clang"
exec "$(dirname "$0")/../../examples/run-demo.sh" "$work"
