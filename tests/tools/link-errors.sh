#!/bin/sh
# A link that fails says so as a linker of one ISA would: lld's messages
# name the objects and archives the command line named (not popcorn-ld's
# temporary copies of each ISA's part), say once what every ISA's link
# says alike, and the link ends with a non-zero status and no executable.
#
#   link-errors.sh BIN_DIR WORK_DIR CLANG
set -eu
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail=0

cat >main.c <<'EOF'
int missing(int);
int helper(void);
int main(void) { return missing(3) + helper(); }
EOF
cat >helper.c <<'EOF'
int helper(void) { return 1; }
EOF
cat >other.c <<'EOF'
int main(void) { return 0; }
EOF
for src in main helper other; do
	"$bin/popcorn-clang" -O2 -c $src.c -o $src.o
done
mkdir lib
"$bin/popcorn-clang" -O2 -c helper.c -o lib/helper.o
ar rc lib/libhelper.a lib/helper.o

# Links that must fail, each with the text its message must have.
check() { # NAME EXPECTED-TEXT ARGS...
	name=$1 expect=$2
	shift 2
	rm -f prog
	status=0
	"$bin/popcorn-clang" "$@" -o prog >out.txt 2>err.txt || status=$?
	if [ "$status" -eq 0 ] || [ "$status" -ge 128 ] || [ -e prog ]; then
		echo "FAIL: $name: exit status $status$([ -e prog ] && echo ', and an executable')"
		fail=1
	fi
	if ! grep -qF -- "$expect" err.txt; then
		echo "FAIL: $name: no '$expect' in:"
		cat err.txt
		fail=1
	fi
	if grep -q 'popcorn-ld-' err.txt; then
		echo "FAIL: $name names popcorn-ld's temporary files:"
		cat err.txt
		fail=1
	fi
	count=$(grep -c 'error: undefined symbol: missing\|error: duplicate symbol: main' err.txt || true)
	if [ "$count" -ne 1 ]; then
		echo "FAIL: $name: the symbol's error appears $count times, not once:"
		cat err.txt
		fail=1
	fi
	if ! grep -q 'popcorn-ld: error: linking the .* failed' err.txt; then
		echo "FAIL: $name: no line saying which links failed:"
		cat err.txt
		fail=1
	fi
	[ "$fail" -ne 0 ] || echo "ok: $name: $(grep -F -- "$expect" err.txt | head -1 | sed 's/^ *//')"
}

check "undefined symbol" ">>>               main.o:(main)" main.o helper.o
check "undefined symbol, archive" ">>>               main.o:(main)" main.o -Llib -lhelper
check "duplicate symbol" ">>>            other.o:(" main.o other.o helper.o
exit $fail
