# bzip2 1.0.8: its own Makefile (CC and CFLAGS on make's command line), and
# its test: the three sample files compressed at levels 1 to 3 and
# decompressed, each result compared with the reference (six checks).
pkg_source=bzip2
pkg_programs="bzip2"

pkg_build() {
	make -j"$JOBS" CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" bzip2 bzip2recover
}

pkg_check() {
	pass=0
	for n in 1 2 3; do
		./bzip2 -$n <sample$n.ref >sample$n.rb2 && cmp sample$n.bz2 sample$n.rb2 && pass=$((pass + 1))
		./bzip2 -d <sample$n.bz2 >sample$n.tst && cmp sample$n.tst sample$n.ref && pass=$((pass + 1))
	done
	counts $pass 6
}

pkg_workload() {
	cat "$INPUT"/bzlib.c "$INPUT"/compress.c "$INPUT"/manual.html >in
	for level in 1 5 9; do
		$RUN ./bzip2 -$level -c in >in.$level.bz2
		cksum <in.$level.bz2
		$RUN ./bzip2 -d -c in.$level.bz2 | cmp - in && echo "level $level: round trip ok"
	done
	$RUN ./bzip2 -t in.5.bz2 && echo "test ok"
	head -c 2000 in.9.bz2 >cut.bz2
	$RUN ./bzip2 -d -c cut.bz2 >/dev/null 2>&1
	echo "truncated: exit $?"
}
