# fmt 9.1.0 (C++): its CMake build with its tests (FMT_TEST, on for the
# top-level project), run by ctest: each test is one GoogleTest program.
# Debian's +ds source removed the bundled GoogleTest (test/gtest, a
# directory of its own with a CMakeLists.txt making the library 'gtest',
# GoogleTest and GoogleMock in one), and Debian's patch points the build at
# the googletest package instead.  The source stays unchanged here: the
# missing directory is put back, its CMakeLists.txt making 'gtest' the same
# way from the googletest package's sources (/usr/src/googletest), compiled
# by the same compiler.  fmt ships no programs: the workload is two of its
# test programs, printf-test and format-test, whose output (the timings
# removed) is compared.
pkg_source=fmtlib
pkg_programs="build/bin/printf-test build/bin/format-test"
# chrono-test (chrono_test.weekday) and unicode-test (legacy_locale) skip
# themselves when std::locale refuses ru_RU.UTF-8 or be_BY.CP1251, as
# glibc does where those locales are not installed; musl accepts every
# locale name, so the tests run, and expect Russian and Belarusian day
# names musl does not have ("Mon").
pkg_musl_differences=2
googletest=/usr/src/googletest

pkg_build() {
	[ -f "$googletest/googletest/src/gtest-all.cc" ] ||
		{ echo "fmtlib: the tests need GoogleTest's sources: apt-get install googletest"; return 1; }
	[ ! -e test/gtest ] || { echo "fmtlib: test/gtest exists: not Debian's +ds source"; return 1; }
	mkdir test/gtest
	cat >test/gtest/CMakeLists.txt <<-END
	add_library(gtest STATIC $googletest/googletest/src/gtest-all.cc
	            $googletest/googlemock/src/gmock-all.cc)
	target_include_directories(gtest SYSTEM PUBLIC
	  $googletest/googletest/include $googletest/googlemock/include)
	target_include_directories(gtest PRIVATE $googletest/googletest $googletest/googlemock)
	target_compile_definitions(gtest PUBLIC GTEST_HAS_STD_WSTRING=1)
	find_package(Threads)
	if (Threads_FOUND)
	  target_link_libraries(gtest \${CMAKE_THREAD_LIBS_INIT})
	else ()
	  target_compile_definitions(gtest PUBLIC GTEST_HAS_PTHREAD=0)
	endif ()
	END
	cmake -S . -B build -DFMT_TEST=ON -DFMT_DOC=OFF || return 1
	# Every test program but the two libc++ 19 cannot compile (below).
	tests=$(cd build && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p' | grep -v -x -e format-impl-test -e xchar-test)
	cmake --build build -j"$JOBS" --target $tests
}

# format-impl-test and xchar-test make std::basic_string_view and
# std::basic_string of fmt's own character type (detail::char8_type before
# C++20): libc++ 19 no longer defines std::char_traits for any but the
# standard character types ("implicit instantiation of undefined template
# 'std::char_traits<fmt::detail::char8_type>'").  fmt 9.1 predates that;
# libstdc++, the baseline's library, still has it.  Neither build runs them.
pkg_check() {
	(cd build && ctest --output-on-failure -E '^(format-impl-test|xchar-test)$') >ctest.log 2>&1 || true
	cat ctest.log
	# "95% tests passed, 1 tests failed out of 20"
	sed -n 's/^[0-9]*% tests passed, \([0-9]*\) tests* failed out of \([0-9]*\)$/\1 \2/p' ctest.log | {
		read -r f n && counts $((n - f)) "$n"
	}
}

pkg_workload() {
	# Every test's name and result, in order; the times removed.
	$RUN ./printf-test | sed 's/ ([0-9]* ms\( total\)*)$//'
	$RUN ./format-test | sed 's/ ([0-9]* ms\( total\)*)$//'
}
