# duktape 2.7.0: the distributable's own Makefiles build the command line
# interpreter (Makefile.cmdline) and the example programs (hello, eval,
# jxpretty, jsoncbor).  The distributable has no test suite of its own, so
# the tests are the example programs and scripts it ships (guide/fib.js,
# guide/prime.js, mandel.js, the polyfills), each with its expected output
# below: the JavaScript's results, and for mandel.js the checksum of what
# the baseline prints.
pkg_source=duktape
pkg_programs="duk"

pkg_build() {
	for m in cmdline hello eval jxpretty jsoncbor; do
		make -f Makefile.$m || return 1
	done
}

# check NAME EXPECTED COMMAND...: one test, passing if the command exits
# with status 0 and prints EXPECTED.
check() {
	name=$1 expected=$2
	shift 2
	total=$((total + 1))
	if got=$("$@" 2>&1) && [ "$got" = "$expected" ]; then
		pass=$((pass + 1))
		echo "PASS: $name"
	else
		echo "FAIL: $name"
		printf 'expected:\n%s\ngot:\n%s\n' "$expected" "$got"
	fi
}

pkg_check() {
	pass=0 total=0
	check hello "$(printf 'Hello world!\n2+3=5')" ./hello
	check eval "$(printf "=== eval: '1+2' ===\n3\n=== eval: '[3,1,2].sort().join(\"-\")' ===\n1-2-3")" \
		./eval '1+2' '[3,1,2].sort().join("-")'
	check fib.js "0 1 1 2 3 5 8 13 21 34 55 89 144 233 377 610 987 1597 2584 4181" \
		./duk examples/guide/fib.js
	echo 'primeTest();' >primetest.js
	check prime.js "$(printf 'Have native helper: false\n49999 59999 79999 139999 179999 199999 239999 289999 329999 379999 389999 409999 419999 529999 599999 619999 659999 679999 769999 799999 839999 989999')" \
		./duk examples/guide/prime.js primetest.js
	check mandel.js "496644096 2156" sh -c './duk mandel.js | cksum'
	check jxpretty "$(printf '{\n    a: [\n        1,\n        2.5,\n        {\n            b: null\n        }\n    ],\n    c: "x\\u1234"\n}')" \
		sh -c 'printf "%s" "{\"a\":[1,2.5,{\"b\":null}],\"c\":\"x\\u1234\"}" | ./jxpretty'
	check jsoncbor '{"a":[1,2.5,"s",true,null,-7,1e+100],"b":{"c":"é"}}' \
		sh -c 'printf "%s" "{\"a\":[1,2.5,\"s\",true,null,-7,1e100],\"b\":{\"c\":\"\\u00e9\"}}" | ./jsoncbor -e | ./jsoncbor -d'
	echo 'var o = Object.assign({}, {a: 1}, {b: 2}); print(JSON.stringify(o));' >assign.js
	check polyfill-object-assign '{"a":1,"b":2}' ./duk polyfills/object-assign.js assign.js
	echo 'var o = {}; o.__defineGetter__("x", function () { return 42; }); print(o.x);' >getter.js
	check polyfill-definegetter 42 ./duk polyfills/object-prototype-definegetter.js getter.js
	counts $pass $total
}

pkg_workload() {
	cat >work.js <<-'END'
	function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
	print(fib(22));
	var a = [];
	for (var i = 0; i < 3000; i++) a.push((i * 7919) % 1009);
	a.sort(function (x, y) { return x - y; });
	print(a.slice(0, 10).join(","), a.length);
	var s = "";
	for (var i = 0; i < 200; i++) s += String.fromCharCode(65 + i % 26);
	print(s.replace(/([A-E]+)/g, "<$1>").length, /F(G+)H/.exec(s)[0]);
	print(JSON.stringify({ x: [1, 2.5, "three", null, true], y: { z: 1e21 } }));
	print(Math.sqrt(2).toFixed(12), Math.PI.toPrecision(10), (0.1 + 0.2).toString(), (1 / 3).toExponential(8));
	print(parseInt("ff", 16), parseFloat("3.25e2"), (255).toString(2), Number.MAX_SAFE_INTEGER);
	var d = new Date(Date.UTC(2020, 1, 29, 12, 34, 56));
	print(d.toISOString(), d.getTime());
	var m = {}; "the quick brown fox jumps over the lazy dog the end".split(" ").forEach(function (w) { m[w] = (m[w] || 0) + 1; });
	print(Object.keys(m).sort().map(function (k) { return k + "=" + m[k]; }).join(" "));
	try { null.x; } catch (e) { print(e.name, e.message); }
	print(typeof Duktape, Duktape.version);
	END
	$RUN ./duk work.js
	$RUN ./duk "$INPUT/examples/guide/fib.js"
	$RUN ./duk -e 'print([1,2,3].map(function(x){return x*x}).reduce(function(a,b){return a+b}))'
}
