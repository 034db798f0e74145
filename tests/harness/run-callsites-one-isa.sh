#!/bin/sh
# run-callsite-tests.sh with a popcorn-inspect whose call-site listing has
# no aarch64 sites, two ways (MODE): "doubled" leaves out aarch64's sites and
# lists x86-64's twice (the same total); "other-isa" lists every ISA's
# sites, then an empty aarch64 heading.  Neither must pass for sites on
# both ISAs.
#
#   run-callsites-one-isa.sh BIN_DIR LLVM_OBJCOPY SOURCE_DIR WORK_DIR MODE
set -eu
bin=$1 objcopy=$2 src=$3 work=$4 mode=$5
rm -rf "$work"
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$bin/popcorn-clang" >"$work/bin/popcorn-clang"
if [ "$mode" = doubled ]; then
	cat >"$work/bin/popcorn-inspect" <<INSPECT
#!/bin/sh
[ "\$1" = callsites ] || exec "$bin/popcorn-inspect" "\$@"
"$bin/popcorn-inspect" "\$@" |
	awk '/^[a-z0-9_]*: / { isa = \$1; print; next } isa == "aarch64:" { next } { print; print }'
INSPECT
else
	cat >"$work/bin/popcorn-inspect" <<INSPECT
#!/bin/sh
[ "\$1" = callsites ] || exec "$bin/popcorn-inspect" "\$@"
"$bin/popcorn-inspect" callsites "\$2" --function work | awk '/^aarch64: / { exit } { print }'
echo "aarch64: 0 call sites"
INSPECT
fi
chmod +x "$work/bin/popcorn-clang" "$work/bin/popcorn-inspect"
exec "$src/run-callsite-tests.sh" "$work/bin" "$objcopy" "$src" "$work/test"
