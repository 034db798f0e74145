#!/bin/sh
# Every call site's record locates its frame as an unwinder does: its CFA
# rule is the one of the unwind row in force during the call, the last row
# that starts before the return address (libunwind looks up Ra - 1).  The
# row at the return address itself may be the epilogue's: after a last
# call, aarch64's moves the CFA from x29 to sp.  A record taken from it
# makes a rewrite leave the frame pointer unwritten, which only a later
# unwind reads (a C++ rethrow crashed).  SOURCE is C++: libc++ has many.
#
#   run-cfa-row-test.sh BIN_DIR LLVM_DWARFDUMP SOURCE WORK_DIR
set -eu
bin=$1 dwarfdump=$2 src=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$bin/popcorn-clang++" -O2 "$src" -o prog
"$bin/popcorn-inspect" extract --isa aarch64 prog prog.aarch64

# Lines "ADDRESS KIND REGISTER OFFSET", the address as 16 hex digits so
# that sort orders them, a site (kind 0) before a row (1) at its address.
rows() {
	"$dwarfdump" --eh-frame "$1" | sed -n 's/^ *0x\([0-9a-f]*\): CFA=\([A-Z0-9]*\)\([-+][0-9]*\)\{0,1\}.*/\1 1 \2 \3/p'
}
sites() {
	"$bin/popcorn-inspect" callsites prog --isa "$1" |
		sed -n 's/^ *0x\([0-9a-f]*\) id .*: CFA = r\([0-9]*\)\([-+][0-9]*\), frame .*/\1 0 \2 \3/p'
}

fail=0
for isa in x86_64 aarch64; do
	file=prog
	[ $isa = aarch64 ] && file=prog.aarch64
	{ rows $file; sites $isa; } | awk '{
		a = $1; while (length(a) < 16) a = "0" a
		print a, $2, $3, $4 + 0
	}' | sort >merged.$isa
	awk -v isa=$isa '
		BEGIN { dwarf["WSP"] = 31; dwarf["W29"] = 29; dwarf["RSP"] = 7; dwarf["RBP"] = 6 }
		$2 == 1 { reg = ($3 in dwarf) ? dwarf[$3] : $3; off = $4; next }
		{
			sites++
			if ($3 != reg || $4 != off) {
				printf "FAIL: %s: the call site at 0x%s records CFA = r%s%+d, its call'"'"'s unwind row says r%s%+d\n",
					isa, $1, $3, $4, reg, off
				bad++
			}
		}
		END {
			if (sites < 100) { printf "FAIL: %s: only %d call sites listed\n", isa, sites; exit 1 }
			if (bad) exit 1
			printf "ok: %s: the CFA rules of %d call sites are their calls'"'"' unwind rows\n", isa, sites
		}' merged.$isa || fail=1
done
exit $fail
