# expat 2.5.0: the XML parser, built with its CMake build (Debian's source
# is a git export without configure).  Its test suite: tests/runtests (the
# C runner; runtestspp is the same tests compiled as C++, which
# popcorn-clang, a C compiler, does not build).
pkg_source=expat
pkg_programs="build/xmlwf/xmlwf build/examples/outline build/examples/elements"

pkg_build() {
	# The tests enable C++ in the CMake project; only the C targets are
	# built, for both compilers.
	cmake -S expat -B build -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_COMPILER=clang++-19 \
		-DEXPAT_SHARED_LIBS=OFF -DEXPAT_BUILD_DOCS=OFF -DEXPAT_BUILD_TESTS=ON &&
		cmake --build build -j"$JOBS" --target expat xmlwf elements outline runtests
}

pkg_check() {
	(cd build && ./tests/runtests) >runtests.log 2>&1 || true
	cat runtests.log
	# "100%: Checks: 246, Failed: 0"
	sed -n 's/^[0-9]*%: Checks: \([0-9]*\), Failed: \([0-9]*\)$/\1 \2/p' runtests.log | {
		read -r n f && counts $((n - f)) "$n"
	}
}

pkg_workload() {
	# The package's own documents, and one with namespaces, entities and
	# character references made here.
	awk 'BEGIN {
		print "<?xml version=\"1.0\"?>"
		print "<!DOCTYPE r [ <!ENTITY e \"entit&#233;\"> <!ATTLIST i k CDATA \"d\"> ]>"
		print "<r xmlns=\"urn:a\" xmlns:b=\"urn:b\">"
		for (i = 0; i < 2000; i++)
			printf "<i n=\"%d\" b:x=\"%x\">&e; &#%d; <b:j>%d</b:j><![CDATA[<%d>]]></i>\n", i, i * 7, 65 + i % 26, i * i, i
		print "</r>"
	}' >made.xml
	files="$INPUT/expat/doc/xmlwf.xml $INPUT/expat/doc/reference.html made.xml"
	$RUN ./xmlwf $files
	mkdir -p canonical
	$RUN ./xmlwf -d canonical $files
	cat canonical/*
	for f in $files; do
		$RUN ./outline <"$f"
		$RUN ./elements <"$f"
	done
}
