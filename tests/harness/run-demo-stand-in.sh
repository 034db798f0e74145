#!/bin/sh
# examples/run-demo.sh on a build whose "compiler" makes a stand-in for
# examples/migrate.c that fails the demo's checks one way (MODE):
#   home-fails   prints the same lines either way, but fails staying home;
#   stays-away   never comes back: its last line is on node 1, and the
#                runtime's report counts one move;
#   any other    passes the demo (the stand-in itself is sound).
# The demo must fail, not compare the outputs and pass.
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
cat >"$work/program" <<'PROG'
#!/bin/sh
home=no
[ "${POPCORN_NODES:-}" = 0:x86_64:native ] && home=yes
where() { [ $home = yes ] || echo " on node $1 ($2)"; }
echo "start                 $(where 0 x86_64): energy 1"
echo "after moving to node 1$(where 1 aarch64): energy 1"
if [ @MODE@ = stays-away ]; then
	echo "back at node 0        $(where 1 aarch64): energy 1"
	echo "popcorn: migrations: 1 away from home (1 to node 1), 1 pages fetched in 1 requests" >&2
	exit 0
fi
echo "back at node 0        $(where 0 x86_64): energy 1"
echo "popcorn: migrations: 1 away from home (1 to node 1), 1 pages fetched in 1 requests" >&2
[ @MODE@ != home-fails ] || [ $home = no ] || exit 3
PROG
chmod +x "$work/bin/popcorn-clang"
exec "$(dirname "$0")/../../examples/run-demo.sh" "$work"
