#!/bin/sh
# cmake --install puts the toolchain under a prefix that can move: install
# into one, rename it, and from another directory build a program with the
# installed popcorn-clang (which must run nothing from the build tree) and
# move it to aarch64 (node 1, under qemu) and back; it prints what a native
# build prints.  The installed popcorn-clang --help lists its own options.
#
#   install.sh BUILD_DIR WORK_DIR CLANG
set -eu
. "$(dirname "$0")/../lib/runs.sh"
build=$(cd "$1" && pwd) work=$2 clang=$3
src=$(cd "$(dirname "$0")" && pwd)/strip.c
rm -rf "$work"
mkdir -p "$work/elsewhere"
work=$(cd "$work" && pwd)

fail() {
	echo "FAIL: $*"
	exit 1
}

cmake --install "$build" --prefix "$work/first" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install"; }
[ -d "$work/first" ] || fail "cmake --install installed nothing"
mv "$work/first" "$work/moved"
prefix=$work/moved
for tool in popcorn-clang popcorn-clang++ popcorn-ld popcorn-llc popcorn-inspect popcorn-ctl popcorn-node; do
	[ -x "$prefix/bin/$tool" ] || fail "no bin/$tool in the install"
done
for file in popcorn-plugin.so include/popcorn.h include/stdarg.h \
	x86_64/lib/libc.a x86_64/lib/libpopcorn.a aarch64/lib/libc.a aarch64/lib/libpopcorn.a \
	x86_64/lib/libc++.a aarch64/lib/libc++abi.a aarch64/lib/libunwind.a aarch64/include/c++/v1/vector; do
	[ -e "$prefix/lib/popcorn/$file" ] || fail "no lib/popcorn/$file in the install"
done

"$prefix/bin/popcorn-clang" --help >help.txt || fail "popcorn-clang --help"
grep -q -- '-fpopcorn-loop-period=N' help.txt || { cat help.txt; fail "--help does not list popcorn-clang's own options"; }

cd "$work/elsewhere"
cp "$src" prog.c
"$prefix/bin/popcorn-clang" -v -O2 prog.c -o prog 2>build.log || { cat build.log; fail "the installed popcorn-clang"; }
# (The prefix is inside the build tree: its bin/ and lib/ are the build's.)
if grep -F -e "$build/bin/" -e "$build/lib/" build.log; then
	fail "the installed popcorn-clang used the above from the build tree $build"
fi
# Nor does anything installed, or the program, name a file of the build.
if grep -l -F -e "$build/bin/" -e "$build/lib/" "$prefix"/bin/* prog; then
	fail "the above name files of the build tree $build"
fi
"$clang" -O2 prog.c -o native || fail "the native build"
run native ./native
run moved env POPCORN_LOG=stats POPCORN_MIGRATE='every=3;nodes=1,0' ./prog
take_report moved "popcorn: migrations: "
if ! cmp -s native.run moved.run; then
	diff -u native.run moved.run || true
	fail "the program built by the installed toolchain, moving, differs from the native run"
fi
count=$(echo "$report" | sed -n 's/^popcorn: migrations: \([0-9]*\) away.*/\1/p')
at_least "the installed toolchain's program" "$count" 4 "fewer than 4 trips away" || exit 1
echo "ok: installed, moved, built from $work/elsewhere, migrated: $report"
rm -rf "$prefix"
