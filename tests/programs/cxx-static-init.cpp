// Static constructors and destructors run in order: globals in definition
// order, function-local statics at first use, destructors in reverse order
// of construction, interleaved with atexit handlers as the standard says.
// POPCORN-MIGRATE-EVERY: 2
#include <cstdio>
#include <cstdlib>

struct Tracer {
	const char *name;
	int value;
	explicit Tracer(const char *n) : name(n), value(0) {
		for (const char *p = n; *p; p++)
			value = value * 3 + *p;
		printf("construct %s %d\n", name, value);
	}
	~Tracer() { printf("destroy %s\n", name); }
};

Tracer first("first");
Tracer second("second");
Tracer table[3] = {Tracer("t0"), Tracer("t1"), Tracer("t2")};

static Tracer &lazy() {
	static Tracer once("lazy");
	return once;
}

static void at_exit() { printf("atexit handler\n"); }

int main() {
	printf("main starts: %d %d\n", first.value, table[2].value);
	atexit(at_exit);
	printf("lazy %d\n", lazy().value);
	printf("lazy again %d\n", lazy().value);
	return 0;
}
