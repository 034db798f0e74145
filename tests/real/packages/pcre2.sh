# pcre2 10.42: ./configure --disable-shared && make (the 8-bit library,
# pcre2test and pcre2grep; no JIT: that is the default, and a JIT emits one
# ISA's code), its test suite with make check (RunTest, RunGrepTest and
# pcre2posix_test in the automake harness).
pkg_source=pcre2
# RunGrepTest's test 150 expects setlocale() to refuse the locale name
# "badlocale"; musl accepts every name (a design decision of musl: an
# unknown locale is the C locale with UTF-8), so RunGrepTest fails with any
# musl build, plain clang's included (--musl-baseline shows it).
pkg_musl_differences=1
pkg_programs="pcre2test pcre2grep"

pkg_build() {
	./configure $CONFIGURE_HOST --disable-shared && make -j"$JOBS"
}

pkg_check() {
	make -k -j"$JOBS" check
	counts $(automake_counts .)
}

pkg_workload() {
	# Two of the package's test inputs through pcre2test (the output is the
	# match results), and pcre2grep over the sources.
	$RUN ./pcre2test -q "$INPUT"/testdata/testinput1
	$RUN ./pcre2test -q "$INPUT"/testdata/testinput4
	$RUN ./pcre2grep -c -i 'pcre2_[a-z_]*match' "$INPUT"/src/*.c
	$RUN ./pcre2grep -o -n '(?<=#define )[A-Z_]{12,}' "$INPUT"/src/pcre2_internal.h
	$RUN ./pcre2grep -v -c '^\s*(/\*|\*|$)' "$INPUT"/src/pcre2_compile.c
}
