# re2 20220601: its Makefile builds libre2.a and the test programs, and
# its own runner (make static-test: ./runtests over the Makefile's TESTS)
# runs them: 14 programs of re2's own test framework, each passing when it
# exits 0 (a failed CHECK aborts it).  Left out: the Makefile's BIGTESTS
# (make static-bigtest): dfa_test, which starts threads (only the main
# thread moves) and takes 30-45 s natively and six minutes moving (it
# passes: its DFA's cache of 2^18 states fetches a million pages), and
# random_test and the four exhaustive*_test, which try every regexp of a
# size against every string and take many minutes each (none finished in
# 60 s).  Not built:
# libre2.so (popcorn-clang links statically) and the debug (obj/dbg)
# copies of the tests, which are the same sources at -O0.
#
# Debian's source leaves out the Unicode and Perl tables re2 generates
# (re2/unicode_casefold.cc, unicode_groups.cc, perl_groups.cc): they are
# generated as Debian's build does, by the package's own scripts, from the
# Unicode data of Debian's unicode-data package (re2/unicode.py reads it
# from unicode.org otherwise: the copy of it here reads the local files).
pkg_source=re2
pkg_programs="obj/test/search_test obj/test/possible_match_test obj/test/parse_test
	obj/test/set_test obj/test/filtered_re2_test obj/test/compile_test obj/test/simplify_test"

# The Makefile's TESTS: obj/test/charclass_test ...
re2_tests() {
	sed -n '/^TESTS=/,/^$/s,^[[:space:]]*\(obj/test/[a-z0-9_]*\).*,\1,p' Makefile
}

pkg_build() {
	gen=$(mktemp -d)
	cp re2/make_unicode_casefold.py re2/make_unicode_groups.py "$gen"/
	sed 's,^_UNICODE_DIR = .*,_UNICODE_DIR = "/usr/share/unicode",' re2/unicode.py >"$gen/unicode.py"
	perl re2/make_perl_groups.pl >re2/perl_groups.cc &&
		python3 "$gen/make_unicode_casefold.py" >re2/unicode_casefold.cc &&
		python3 "$gen/make_unicode_groups.py" >re2/unicode_groups.cc || return 1
	rm -rf "$gen"
	[ -n "$(re2_tests)" ] || return 1
	make -j"$JOBS" obj/libre2.a $(re2_tests)
}

pkg_check() {
	make static-test >runtests.log 2>&1 || true
	cat runtests.log
	counts "$(grep -c '^obj/test/.*PASS$' runtests.log)" "$(grep -c '^obj/test/' runtests.log)"
}

pkg_workload() {
	# Test programs whose output (the names of the tests, and what they
	# log: the regexps possible_match_test checks, parse errors) depends
	# only on the program: search_test runs every matching engine over
	# re2's search tests and compares their results.
	for t in search_test possible_match_test parse_test set_test filtered_re2_test compile_test \
		simplify_test; do
		echo "== $t"
		$RUN ./$t
		echo "exit $?"
	done
}
