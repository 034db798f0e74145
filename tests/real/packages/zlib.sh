# zlib 1.2.13: its own configure script (--static), and its tests for a
# static build: the example program and minigzip, and their 64-bit offset
# builds (make teststatic test64: two checks, each "*** zlib ... test OK
# ***").
pkg_source=zlib
pkg_programs="minigzip example"

pkg_build() {
	./configure --static && make -j"$JOBS" example minigzip example64 minigzip64
}

pkg_check() {
	make teststatic test64 2>&1 | tee test.out
	pass=$(grep -c 'zlib .*test OK' test.out)
	counts "$pass" 2
}

pkg_workload() {
	cat "$INPUT"/deflate.c "$INPUT"/inflate.c "$INPUT"/ChangeLog >in
	for level in 1 6 9; do
		$RUN ./minigzip -$level <in >in.$level.gz
		cksum <in.$level.gz
		$RUN ./minigzip -d <in.$level.gz | cmp - in && echo "level $level: round trip ok"
	done
	$RUN ./example
	echo "example: exit $?"
}
