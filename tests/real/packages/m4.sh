# GNU m4 1.4.19: ./configure && make, its test suite with make check: the
# examples of the manual (checks/, run by check-them) and gnulib's tests
# (tests/, the automake harness).
pkg_source=m4
# gnulib's test-posix_spawn_file_actions_addclose expects EBADF for a
# descriptor above RLIMIT_NOFILE (its comment: "not mandated by POSIX");
# musl 1.2.3 refuses only negative ones, so the test fails with any musl
# build, plain clang's included (--musl-baseline shows it).
pkg_musl_differences=1
pkg_programs="src/m4"

pkg_build() {
	./configure $CONFIGURE_HOST && make -j"$JOBS"
}

pkg_check() {
	make -k -j"$JOBS" check >check.out 2>&1 || true
	cat check.out
	# check-them: "Checking FILE" per example, then the lists of skipped
	# and failed ones (failures as FILE:status, FILE:out, FILE:err).
	doc=$(awk '
		/^Checking / { total++ }
		/^Skipped checks were:/ { getline; skipped = NF }
		/^Failed checks were:/ { getline; for (i = 1; i <= NF; i++) { sub(/:.*/, "", $i); f[$i] = 1 } }
		END { n = 0; for (k in f) n++; print total - skipped - n, total - skipped }' check.out)
	set -- $doc $(automake_counts tests)
	counts $(($1 + $3)) $(($2 + $4))
}

pkg_workload() {
	# Every example of the manual (loops, foreach, quoting, recursion,
	# diversions, eval, regexp and patsubst, tracing), Hanoi's towers, and
	# a computation of our own.
	m4=$(pwd)/m4
	cd "$INPUT/examples"
	for f in *.m4; do
		echo "== $f"
		$RUN "$m4" -I. "$f"
		echo "== exit $?"
	done
	printf 'include(`hanoi.m4'"'"')hanoi(7)\n' | $RUN "$m4" -I.
	printf '%s\n' 'define(`fib'"'"', `ifelse(eval($1 < 2), 1, $1, `eval(fib(decr($1)) + fib(eval($1 - 2)))'"'"')'"'"')dnl' \
		'fib(15) eval(2**30 / 7, 16) format(`%08.3f'"'"', 3.14159) substr(`popcorn'"'"', 1, 3) len(`xyz'"'"')' \
		'translit(`multi-isa'"'"', `a-z'"'"', `A-Z'"'"') regexp(`abc123def'"'"', `[0-9]+'"'"', `<\&>'"'"')' \
		'patsubst(`one two three'"'"', `\w+'"'"', `[\&]'"'"') index(`haystack'"'"', `st'"'"')' |
		$RUN "$m4"
}
