# xz-utils 5.4.1: ./configure --disable-shared && make (liblzma, xz, xzdec,
# lzmainfo; static: popcorn programs are static executables), its test
# suite with make check (tests/, the automake harness); its workload
# compresses with one thread and with four.
pkg_source=xz-utils
pkg_programs="src/xz/xz src/xzdec/xzdec"

pkg_build() {
	./configure $CONFIGURE_HOST --disable-shared && make -j"$JOBS"
}

pkg_check() {
	make -k -j"$JOBS" check
	counts $(automake_counts .)
}

pkg_workload() {
	cat "$INPUT"/ChangeLog "$INPUT"/src/liblzma/lzma/*.c >in
	for opts in "-0" "-6e" "--format=lzma -3" "--check=sha256 -2" "--lzma2=preset=1,lc=4,lp=0 --delta=dist=4"; do
		$RUN ./xz $opts -c -T1 in >in.xz
		echo "$opts: $(od -An -tx1 in.xz | cksum)"
		$RUN ./xz -d -c $( [ "${opts#--format=lzma}" = "$opts" ] || echo --format=lzma) in.xz | cmp - in && echo "$opts: round trip ok"
	done
	$RUN ./xz -2 -c -T1 in >in.xz
	$RUN ./xzdec in.xz | cmp - in && echo "xzdec ok"
	# Four threads, each compressing its blocks (of 3 MiB at -1): the
	# output depends on the blocks only, whatever the threads' timing.
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do cat in; done >big
	head -c 10000000 big >big10
	$RUN ./xz -1 -c -T4 big10 >big10.xz
	echo "-T4: $(od -An -tx1 big10.xz | cksum)"
	$RUN ./xz -d -c -T4 big10.xz | cmp - big10 && echo "-T4: round trip ok"
	$RUN ./xz -l -vv in.xz | grep -v -i 'memory'
	$RUN ./xz --robot -t -v in.xz
	printf 'not xz' | $RUN ./xz -d -c
	echo "exit $?"
}
