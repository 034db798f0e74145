# ninja 1.11.1 (C++): configure.py --bootstrap builds ninja with $CXX and
# $CXXFLAGS (the lexers are generated ones it ships: no re2c), then the
# bootstrapped ninja relinks itself in place and builds its unit tests,
# ninja_test (a gtest-like runner of its own: "[N/TOTAL] Suite.Test" per
# test, "*** Failure in FILE:LINE" per failed check, "passed" or "failed"
# at the end).  The workload: ninja building a small generated project.
pkg_source=ninja-build
pkg_programs="ninja"

pkg_build() {
	command -v python3 >/dev/null || { echo "ninja-build: configure.py needs python3"; return 1; }
	python3 configure.py --bootstrap && ./ninja -j"$JOBS" ninja_test
}

pkg_check() {
	./ninja_test >ninja_test.log 2>&1
	cat ninja_test.log
	# A test passes if no check in it failed; a run that ends without its
	# verdict (a crash) fails the test that was running.
	awk '
		/^\[[0-9]+\/[0-9]+\] / { started++; split($1, n, /[][\/]/); total = n[3]; test = $2; next }
		/^\*\*\* Failure in / { if (!(test in failed)) { failed[test] = 1; nfailed++ }; next }
		/^(passed|failed)$/ { ended = 1 }
		END {
			passed = started - nfailed
			if (!ended && started > 0 && !(test in failed)) passed--
			print passed + 0, total + 0
		}' ninja_test.log >counts.txt
	counts $(cat counts.txt)
}

pkg_workload() {
	# Sources, and a build.ninja of 40 steps through cat, cp, touch, wc
	# and sort: variables at file, rule and build scope, a pool, implicit,
	# order-only and implicit-output edges, a depfile read into the deps
	# log, restat, phony and default targets, an included file.
	mkdir -p proj/src
	i=0
	while [ $i -lt 12 ]; do
		printf 'source %d\nline %d\n' $i $((i * i)) >proj/src/s$i.txt
		i=$((i + 1))
	done
	echo 'header 1' >proj/src/common.h
	awk 'BEGIN {
		print "ninja_required_version = 1.7"
		print "builddir = out"
		print "banner = built"
		print "pool serial\n  depth = 1"
		print "rule cat\n  command = cat $in > $out\n  description = CAT $out"
		print "rule stamp\n  command = echo $banner $in > $out\n  description = STAMP $out"
		print "rule cp\n  command = cp $in $out"
		print "rule count\n  command = wc -l $in > $out\n  pool = serial"
		print "rule copy_if_changed\n  command = cmp -s $in $out || cp $in $out\n  restat = 1"
		print "rule compile\n  command = cat $in src/common.h > $out && echo \"$out: $in src/common.h\" > $out.d"
		print "  depfile = $out.d\n  deps = gcc\n  description = COMPILE $in"
		print "rule sorted\n  command = sort -r $in > $out && touch $out.side"
		print "include extra.ninja"
		for (i = 0; i < 12; i++) {
			printf "build out/o%d.txt: compile src/s%d.txt || out/dir.stamp\n", i, i
			printf "build out/c%d.txt: cat out/o%d.txt src/s%d.txt\n", i, i, (i + 1) % 12
		}
		printf "build out/all.txt: cat"
		for (i = 0; i < 12; i++) printf " out/c%d.txt", i
		print ""
		print "build out/all.count: count out/all.txt"
		print "build out/all.sorted | out/all.sorted.side: sorted out/all.txt"
		print "build out/stable.txt: copy_if_changed out/all.count"
		print "build out/final.txt: stamp out/stable.txt | out/all.sorted\n  banner = final"
		print "build out/dir.stamp: touchit"
		print "build all: phony out/final.txt out/all.sorted"
		print "default all"
	}' >proj/build.ninja
	printf 'rule touchit\n  command = touch $out\n' >proj/extra.ninja
	$RUN ./ninja -C proj -j1
	cat proj/out/final.txt proj/out/all.count
	sort proj/out/all.sorted | cksum
	$RUN ./ninja -C proj -j1
	# The header is in no build line, only in the depfiles: the deps log
	# makes every compile step run again, and restat stops at stable.txt.
	sleep 1
	echo 'header 2' >proj/src/common.h
	$RUN ./ninja -C proj -j1 -v -d explain 2>explain.log
	sed -n '/^ninja explain: .* is dirty$/p' explain.log | sort
	sleep 1
	echo 'source 3 changed' >proj/src/s3.txt
	$RUN ./ninja -C proj -n
	$RUN ./ninja -C proj -j1 out/c2.txt
	$RUN ./ninja -C proj -t query out/all.txt out/o5.txt
	$RUN ./ninja -C proj -t targets all | sort
	$RUN ./ninja -C proj -t targets depth 2
	$RUN ./ninja -C proj -t targets rule cat | sort
	# The graph names nodes by their addresses: numbered in order here.
	$RUN ./ninja -C proj -t graph out/all.count | awk '{
		while (match($0, /"0x[0-9a-f]+"/)) {
			a = substr($0, RSTART, RLENGTH)
			if (!(a in id)) id[a] = ++n
			$0 = substr($0, 1, RSTART - 1) "node" id[a] substr($0, RSTART + RLENGTH)
		}
		print
	}'
	$RUN ./ninja -C proj -t inputs out/all.count
	$RUN ./ninja -C proj -t deps out/o1.txt out/o7.txt | sed 's/deps mtime [0-9]*/deps mtime T/'
	$RUN ./ninja -C proj -t missingdeps
	$RUN ./ninja -C proj -t commands out/all.txt
	$RUN ./ninja -C proj -t rules
	$RUN ./ninja -C proj -t compdb compile | sed "s|$PWD|DIR|g"
	$RUN ./ninja -C proj -t recompact
	$RUN ./ninja -C proj -t cleandead
	$RUN ./ninja -C proj -t clean out/all.sorted
	$RUN ./ninja -C proj -j1 all
	$RUN ./ninja -C proj no-such-target
	echo "exit status $?"
	$RUN ./ninja -t list
	$RUN ./ninja --version
}
