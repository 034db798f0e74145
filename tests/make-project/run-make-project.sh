#!/bin/sh
# Build a small multi-file make project (a static library, -L. -lshapes,
# -lm, -MMD) with popcorn-clang as CC and with the baseline compiler, run
# the popcorn program on x86-64 and on aarch64 (qemu) and the baseline
# program, and compare.  Also checks that the dependency files popcorn-clang
# writes name the object and the header, so that make rebuilds after a
# header changes.
#
#   run-make-project.sh BIN_DIR SYSROOT CLANG LLD QEMU_AARCH64 PROJECT_DIR WORK_DIR
set -eu
. "$(dirname "$0")/../lib/runs.sh"
if [ $# -ne 7 ]; then
	echo "usage: $0 BIN_DIR SYSROOT CLANG LLD QEMU_AARCH64 PROJECT_DIR WORK_DIR" >&2
	exit 2
fi
bin=$1 sysroot=$2 clang=$3 lld=$4 qemu=$5 project=$6 work=$7
rm -rf "$work"
mkdir -p "$work/popcorn" "$work/baseline"
cp "$project"/*.c "$project"/*.h "$project"/Makefile "$work/popcorn/"
cp "$project"/*.c "$project"/*.h "$project"/Makefile "$work/baseline/"
cd "$work"

# The baseline compiler: clang for x86-64 against the same musl, as a
# gcc-like command for make.
x86=$sysroot/x86_64
resource=$("$clang" -print-resource-dir)
cat >baseline-cc <<WRAPPER
#!/bin/sh
for arg; do
	case \$arg in -c|-E|-M|-MM) exec "$clang" --target=x86_64-linux-musl -nostdinc -isystem "$x86/include" -isystem "$resource/include" -mlong-double-128 "\$@";; esac
done
exec "$clang" --target=x86_64-linux-musl -mlong-double-128 -fuse-ld=lld --ld-path="$lld" -static -nostdlib \\
	"$x86/lib/crt1.o" "$x86/lib/crti.o" "\$@" -L"$x86/lib" \\
	-Wl,--start-group -lc "$x86/lib/libpopcorn-builtins.a" -Wl,--end-group "$x86/lib/crtn.o"
WRAPPER
chmod +x baseline-cc

fail() {
	echo "FAIL: $*"
	exit 1
}

echo "--- make with popcorn-clang"
make -C popcorn CC="$bin/popcorn-clang" || fail "make with popcorn-clang"
echo "--- make with the baseline compiler"
make -C baseline CC="$work/baseline-cc" || fail "make with the baseline compiler"
[ -f popcorn/libshapes.a ] || fail "no libshapes.a"

# Dependency files: written next to each object, naming it and the header.
for o in circle polygon report main; do
	d=popcorn/$o.d
	[ -f "$d" ] || fail "popcorn-clang -MMD wrote no $d"
	head -1 "$d" | grep -q "^$o\.o:" || { cat "$d"; fail "$d does not name the target $o.o"; }
	grep -q 'shapes\.h' "$d" || { cat "$d"; fail "$d does not list shapes.h"; }
	grep -q '^shapes\.h:' "$d" || { cat "$d"; fail "$d has no phony target for shapes.h (-MP)"; }
	if grep -q -e '/tmp/' -e '\.bc' "$d"; then cat "$d"; fail "$d names a temporary file"; fi
done
# ...and make uses them: with everything up to date, touching the header
# makes every object out of date.
(
	cd popcorn
	touch -d '2001-01-01 00:00:00' *.c *.h Makefile
	touch -d '2001-01-01 00:01:00' *.o *.d
	touch -d '2001-01-01 00:02:00' libshapes.a
	touch -d '2001-01-01 00:03:00' shapes
	make -q CC="$bin/popcorn-clang" || fail "make thinks an up-to-date build is out of date"
	touch -d '2001-01-01 00:04:00' shapes.h
	if make -q CC="$bin/popcorn-clang"; then fail "make does not rebuild after shapes.h changed"; fi
	make -n CC="$bin/popcorn-clang" >plan.txt
	for o in circle polygon report main; do
		grep -q -- "-c $o.c" plan.txt || { cat plan.txt; fail "make would not rebuild $o.o after shapes.h changed"; }
	done
)
echo "ok: dependency files name their objects and make follows them"

"$bin/popcorn-inspect" extract --isa aarch64 popcorn/shapes shapes.aarch64

run baseline ./baseline/shapes
run x86_64 ./popcorn/shapes
run aarch64 "$qemu" ./shapes.aarch64
result=0
same_as_baseline "the popcorn build" || result=1
grep -q 'report lines' baseline.stdout || { cat baseline.run; fail "the baseline program did not run"; }
[ $result -eq 0 ] && echo "ok: the make project gives the same output on x86_64, aarch64 and the baseline"
exit $result
