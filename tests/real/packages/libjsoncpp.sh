# jsoncpp 1.9.5 (source package libjsoncpp): CMake builds the static
# library, jsontestrunner_exe and jsoncpp_test (BUILD_SHARED_LIBS and
# BUILD_OBJECT_LIBS off: popcorn-clang links statically; the unit tests as
# a post-build step off, so that they run with the tests), CMAKE_BUILD_TYPE
# None so that CXXFLAGS is the optimization.  Its own tests, ctest: the
# unit tests of jsoncpp_test (each a test: values, readers and writers,
# exceptions thrown for bad input and caught), and test/runjsontests.py
# running jsontestrunner_exe over test/data, once plain and once with the
# JSONChecker files (each file a test: parse, write, parse the rewrite,
# compare with the expected).  All of them, serially: both runs of
# runjsontests.py write their results next to the same inputs.
pkg_source=libjsoncpp
pkg_programs="build/bin/jsontestrunner_exe build/bin/jsoncpp_test"

pkg_build() {
	mkdir build && cd build &&
		cmake .. -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF -DBUILD_OBJECT_LIBS=OFF \
			-DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF &&
		make -j"$JOBS"
}

pkg_check() {
	(cd build && ctest -V) >ctest.log 2>&1 || true
	cat ctest.log
	# jsoncpp_test: "Testing NAME: OK" (or FAILED); runjsontests.py:
	# "TESTING: FILE", then OK (or FAILED, parsing failed) on a line of
	# its own, after the command it ran (on stderr).  ctest -V puts the
	# test's number before each line.
	pass=$(grep -c -E '^[0-9]+: OK$|Testing [^ ]+: OK$' ctest.log)
	total=$(grep -c -E 'TESTING: |Testing [^ ]+: ' ctest.log)
	counts "$pass" "$total"
}

pkg_workload() {
	# jsontestrunner_exe over the package's test data, written by two
	# writers (StyledWriter and the StreamWriter its builder makes), and
	# the JSONChecker files, which it must accept or refuse; then the unit
	# tests.  What it writes goes next to each input (FILE.actual,
	# FILE.actual-rewrite): a copy of the data.
	cp -R "$INPUT"/test/data "$INPUT"/test/jsonchecker .
	for writer in StyledWriter BuiltStyledStreamWriter; do
		for f in data/*.json; do
			$RUN ./jsontestrunner_exe --json-writer $writer "$f" >/dev/null 2>&1
			echo "$writer $f: exit $? $(cksum <"${f%.json}.actual" 2>&1)" \
				"$(cksum <"${f%.json}.actual-rewrite" 2>&1)"
		done
	done
	for f in jsonchecker/*.json; do
		$RUN ./jsontestrunner_exe --json-checker "$f" >/dev/null 2>&1
		echo "checker $f: exit $?"
	done
	$RUN ./jsoncpp_test
	echo "jsoncpp_test: exit $?"
}
