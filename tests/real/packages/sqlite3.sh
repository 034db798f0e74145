# SQLite 3.40.1: ./configure --disable-tcl && make sqlite3.c sqlite3 (the
# amalgamation, made with tclsh, and the shell built from it).  The test
# suite proper needs Tcl (testfixture); the test programs that do not are
# run: fuzzcheck over the fuzz databases (make fuzztest also runs
# sessionfuzz, which needs zlib: popcorn's sysroot has none, so neither
# build runs it).  fuzzcheck counts every database case it runs as a test.
pkg_source=sqlite3
pkg_programs="sqlite3"

pkg_build() {
	command -v tclsh >/dev/null || { echo "sqlite3: making sqlite3.c needs tclsh (apt-get install tcl)"; return 1; }
	# No line editing: configure finds the build machine's readline headers
	# (glibc's), which a program for popcorn's musl cannot include.
	./configure $CONFIGURE_HOST --disable-tcl --disable-shared --disable-readline \
		--disable-editline && make -j"$JOBS" sqlite3.c && make sqlite3
}

pkg_check() {
	make -j"$JOBS" fuzzcheck || return 0
	./fuzzcheck test/fuzzdata*.db >fuzzcheck.out 2>&1
	cat fuzzcheck.out
	# "fuzzcheck: 0 errors out of 11265 tests in 9.542 seconds"
	n=$(sed -n 's/^fuzzcheck: 0 errors out of \([0-9]*\) tests.*/\1/p' fuzzcheck.out)
	total=$(sed -n 's/^fuzzcheck: .* out of \([0-9]*\) tests.*/\1/p' fuzzcheck.out)
	counts "${n:-0}" "${total:-?}" # no summary line: no result
}

pkg_workload() {
	cat >work.sql <<-'END'
	CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL, d BLOB);
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
	  INSERT INTO t SELECT i, printf('row %05d %s', i, hex(i * 7919)), i * 0.37 - 100, zeroblob(i % 17) FROM n;
	CREATE INDEX tb ON t(b);
	CREATE INDEX tc ON t(c DESC);
	SELECT count(*), sum(a), total(c), avg(c), min(b), max(b), sum(length(d)) FROM t;
	SELECT a % 10 AS k, count(*), round(sum(c), 4), group_concat(a, ',') FILTER (WHERE a < 60) FROM t GROUP BY k ORDER BY k;
	SELECT a, c, rank() OVER (ORDER BY c DESC), sum(a) OVER (ORDER BY a ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t WHERE a % 500 = 0;
	SELECT json_group_array(json_object('a', a, 'c', c)) FROM t WHERE a < 5;
	SELECT printf('%.10e|%20.3f|%x|%q', c * 1e10, c, a, b) FROM t WHERE a IN (1, 77, 4999);
	UPDATE t SET b = upper(b) WHERE a % 3 = 0;
	DELETE FROM t WHERE a % 7 = 0;
	SELECT count(*), sum(length(b)), max(a) FROM t;
	CREATE VIRTUAL TABLE f USING fts4(body);
	INSERT INTO f SELECT b FROM t WHERE a < 300;
	SELECT count(*) FROM f WHERE f MATCH 'ROW';
	SELECT quote(x'00ff'), unicode('é'), char(233, 0x4e2d), substr('multi-isa', 7), instr('popcorn', 'corn'), 7 / 2, 7 / 2.0, -7 % 3, 1e308 * 10, abs(-9223372036854775807);
	PRAGMA integrity_check;
	END
	$RUN ./sqlite3 -batch work.db <work.sql
	$RUN ./sqlite3 -batch work.db 'SELECT count(*) FROM t; VACUUM; PRAGMA page_count;'
	$RUN ./sqlite3 -batch -json work.db 'SELECT a, b FROM t ORDER BY a DESC LIMIT 3'
}
