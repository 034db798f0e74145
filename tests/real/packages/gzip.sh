# gzip 1.12: ./configure && make, its test suite with make check (the
# automake harness in tests/, gnulib's tests are not part of gzip's).
pkg_source=gzip
pkg_programs="gzip"

pkg_build() {
	./configure $CONFIGURE_HOST && make -j"$JOBS"
}

pkg_check() {
	make -k -j"$JOBS" check
	counts $(automake_counts .)
}

pkg_workload() {
	cat "$INPUT"/ChangeLog "$INPUT"/NEWS "$INPUT"/gzip.c >in
	for level in 1 6 9; do
		$RUN ./gzip -$level -n -c in >in.$level.gz
		od -An -tx1 in.$level.gz | cksum
		$RUN ./gzip -d -c in.$level.gz | cmp - in && echo "level $level: round trip ok"
	done
	# -l -v prints the file's own time: a fixed one, so that runs a minute
	# apart print the same.
	touch -d '2000-01-01 00:00:00' in.9.gz
	$RUN ./gzip -l -v in.9.gz
	$RUN ./gzip -t in.6.gz && echo "test ok"
	printf 'not gzip' | $RUN ./gzip -d -c
	echo "exit $?"
}
