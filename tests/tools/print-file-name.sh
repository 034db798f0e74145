#!/bin/sh
# -print-file-name=NAME names NAME in popcorn's sysroot, the directory
# -print-search-dirs gives for libraries; a name the sysroot lacks comes
# back as it was (as gcc and clang answer).
#
#   print-file-name.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1
libraries=$("$bin/popcorn-clang" -print-search-dirs | sed -n 's,^libraries: =,,p')
libc=$("$bin/popcorn-clang" -print-file-name=libc.a)
echo "-print-file-name=libc.a: $libc"
fail=0
if [ "$libc" != "$libraries/libc.a" ] || [ ! -f "$libc" ]; then
	echo "FAIL: expected $libraries/libc.a, an existing file"
	fail=1
fi
missing=$("$bin/popcorn-clang" -print-file-name=libpopcorn-no-such-library.a)
if [ "$missing" != libpopcorn-no-such-library.a ]; then
	echo "FAIL: a missing library gave '$missing'"
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: libc.a is popcorn's"
exit $fail
