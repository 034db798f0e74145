# libdeflate 1.14: its Makefile builds libdeflate.a (DISABLE_SHARED: popcorn
# programs are static executables), the gzip program and
# the test programs, which link zlib: Debian's zlib source is built first
# with the same compiler.  Its own tests: what scripts/check.sh runs (make
# check), each command one test: benchmark's round trips over the
# library's sources, with libdeflate on both sides and with zlib on one,
# and every programs/test_* program.
pkg_source=libdeflate
pkg_programs="gzip"

pkg_build() {
	zlib_tarball=$(fetch_source zlib) && unpack "$zlib_tarball" ../zlib &&
		(cd ../zlib && ./configure --static && make -j"$JOBS" libz.a) &&
		make -j"$JOBS" DISABLE_SHARED=1 CPPFLAGS=-I../zlib LDFLAGS=-L../zlib all test_programs
}

pkg_check() {
	pass=0 total=0
	for command in "./benchmark" "./benchmark -C libz" "./benchmark -D libz" ./test_*; do
		total=$((total + 1))
		echo "== $command"
		if cat lib/*.c | $command; then pass=$((pass + 1)); fi
	done
	counts "$pass" "$total"
}

pkg_workload() {
	cat "$INPUT"/lib/*.c "$INPUT"/NEWS.md >in
	for level in 0 1 6 9 12; do
		$RUN ./gzip -$level -c in >in.gz
		echo "level $level: $(cksum <in.gz)"
		$RUN ./gzip -d -c in.gz | cmp - in && echo "level $level: round trip ok"
	done
	$RUN ./gzip -t in.gz && echo "test mode ok"
	printf 'not gzip' >bad.gz
	$RUN ./gzip -d -c bad.gz
	echo "exit $?"
}
