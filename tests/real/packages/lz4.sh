# lz4 1.9.4: its Makefiles build lz4 (the command-line tool) and the test
# programs of tests/.  Its own tests: the quick targets of tests/Makefile,
# each one test: the command line's round trips, multiple files,
# concatenated frames, content size, dictionaries, test and benchmark
# modes, skippable frames, and the library's unit tests, frametest and
# fuzzer, for a fixed number of rounds instead of their 90 seconds each.
# Left out: test-lz4-sparse, -hugefile and -opt-parser, which compress
# tens to hundreds of megabytes, and test-fullbench, a benchmark that
# times each function it measures for 2.5 s of CPU (minutes in all).
pkg_source=lz4
pkg_programs="programs/lz4"

pkg_build() {
	make -j"$JOBS" lz4 && make -C tests -j"$JOBS" datagen frametest fuzzer
}

pkg_check() {
	targets="test-lz4-basic test-lz4-multiple test-lz4-multiple-legacy
		test-lz4-frame-concatenation test-lz4-testmode test-lz4-contentSize
		test-lz4-dict test-lz4-skippable test-frametest test-fuzzer"
	pass=0 total=0
	for target in $targets; do
		total=$((total + 1))
		if make -C tests "$target" FUZZER_TIME="-i2 -s1"; then pass=$((pass + 1)); fi
	done
	counts "$pass" "$total"
}

pkg_workload() {
	cat "$INPUT"/lib/lz4.c "$INPUT"/lib/lz4hc.c "$INPUT"/NEWS >in
	for opts in -1 -9 -12 "-3 --favor-decSpeed" "-1 -BD --no-frame-crc" "-9 -l" "--fast=3"; do
		$RUN ./lz4 $opts -c in >in.lz4
		echo "$opts: $(cksum <in.lz4)"
		$RUN ./lz4 -d -c in.lz4 | cmp - in && echo "$opts: round trip ok"
	done
	$RUN ./lz4 -t in.lz4 && echo "test mode ok"
	$RUN ./lz4 --list in.lz4
	printf 'not lz4' | $RUN ./lz4 -d -c
	echo "exit $?"
}
