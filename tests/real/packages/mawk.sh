# mawk 1.3.4-20200120: ./configure && make, its tests with make check
# (test/mawktest: sections of checks, each OK or failing; test/fpe_test).
pkg_source=mawk
pkg_programs="mawk"

pkg_build() {
	./configure $CONFIGURE_HOST && make -j"$JOBS"
}

pkg_check() {
	make -k check >check.out 2>&1 || true
	cat check.out
	# Every section of mawktest ends with "NAME OK" or "NAME had N
	# failure(s)"; fpe_test ends with its own verdict.
	awk '
		/^(testing|checking) / { next }
		/ OK$/ { pass++; total++; next }
		/ had (one failure|[0-9]+ failures)$/ { total++; next }
		END { print pass + 0, total + 0 }' check.out >counts.txt
	counts $(cat counts.txt)
}

pkg_workload() {
	cat "$INPUT"/*.c "$INPUT"/*.h >in
	# Word frequencies, numbers, printf, regular expressions, split,
	# substr, sprintf with floating point, associative arrays, getline.
	$RUN ./mawk '{ for (i = 1; i <= NF; i++) w[$i]++ }
		END { for (k in w) if (w[k] > 40) print w[k], k | "sort -k1,1nr -k2"; close("sort -k1,1nr -k2") }' in
	$RUN ./mawk 'BEGIN { for (i = 1; i <= 200; i++) { x = sin(i) * exp(i / 50); printf "%d %.10g %e %s\n", i, x, x * 1e10, int(x * 1000) } }'
	$RUN ./mawk '/^[a-z_]+\(/ { n++; split($0, a, /[(,)]/); print NR ": " substr(a[1], 1, 20) " " length($0) } END { print n " functions" }' in
	$RUN ./mawk 'BEGIN { while ((getline line < ARGV[1]) > 0) { n++; s += length(line); gsub(/[aeiou]/, "", line); t += length(line) }; print n, s, t, s / n }' in
	$RUN ./mawk 'BEGIN { srand(7); for (i = 0; i < 5; i++) print int(rand() * 1000); print toupper("done"), 2^53 + 1, 1/3 }'
}
