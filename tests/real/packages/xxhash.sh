# xxHash 0.8.1: its Makefile builds xxhsum, the command-line tool, on the
# one-file library.  Its own tests: make check (the self-test against known
# hashes, each variant's benchmark at zero iterations, hashes of the
# sources) and make test-xxhsum-c (checksum files written in each format and
# verified, malformed lines and missing files reported): two tests.
pkg_source=xxhash
pkg_programs="xxhsum"

pkg_build() {
	make -j"$JOBS" xxhsum
}

pkg_check() {
	pass=0
	for target in check test-xxhsum-c; do
		if make "$target"; then pass=$((pass + 1)); fi
	done
	counts "$pass" 2
}

pkg_workload() {
	cat "$INPUT"/xxhash.h "$INPUT"/cli/*.c >in
	head -c 1000 in >short
	: >empty
	for variant in 0 1 2 3; do
		$RUN ./xxhsum -H$variant in short empty
		$RUN ./xxhsum -H$variant --tag --little-endian in
	done
	$RUN ./xxhsum -H2 in short >sums
	$RUN ./xxhsum -c sums
	echo "0000000000000000  in" | $RUN ./xxhsum -c -
	echo "check of a wrong sum: exit $?"
	$RUN ./xxhsum -H3 <in
}
