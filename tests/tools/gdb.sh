#!/bin/sh
# What gdb shows of a popcorn program on x86-64 (README.md, "Debugging"):
# a long double, binary128 on every ISA, prints its value as an argument
# and as a variable (gdb read it as x87's 80-bit format: 0, or "<invalid
# float value>").  The value is compared with what the program prints.
#
#   gdb.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
if ! command -v gdb >/dev/null; then
	echo "FAIL: gdb is not installed (scripts/install-deps.sh installs it)"
	exit 1
fi
cat >prog.c <<'PROG'
#include <stdio.h>

struct big {
	long a, b, c;
};

long double third(long double x)
{
	return x / 3;
}

struct big make(long n)
{
	struct big b = {n, n * 2, n * 3};
	return b;
}

int main(void)
{
	long double t = third(1.0L);
	struct big b = make(7);
	printf("%.17g\n%ld %ld %ld\n", (double)t, b.a, b.b, b.c); /* line 22 */
	return 0;
}
PROG
"$bin/popcorn-clang" -g -O0 prog.c -o prog
./prog >native.txt
cat >commands.gdb <<'GDB'
break third
break prog.c:22
run
continue
print (double)t
GDB
gdb -q -batch -nx -x commands.gdb ./prog >gdb.txt 2>&1 || true
cat gdb.txt
# gdb's %.17g of the double; the program's.
third=$(sed -n 1p native.txt)
fail=0
if grep -q 'invalid float value' gdb.txt; then
	echo "FAIL: gdb cannot read a long double"
	fail=1
fi
# ("Thread N hit Breakpoint 1, ..." while the program has a second thread,
# as it does once popcorn-ctl asked it.)
if ! grep -q 'Breakpoint 1, third (x=1) at prog.c:9' gdb.txt; then
	echo "FAIL: gdb did not show third's argument as 1"
	fail=1
fi
if ! grep -qF "\$1 = $third" gdb.txt; then
	echo "FAIL: print (double)t did not show $third, as the program prints it"
	fail=1
fi
[ $fail -eq 0 ] && echo "ok: gdb shows a long double as the program has it"
exit $fail
