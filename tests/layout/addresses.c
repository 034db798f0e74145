/* Prints the addresses of functions (the program's and libc's), globals,
 * string literals, stdout, a static local, and the bytes of initialized
 * data.  Every ISA's image of one multi-ISA executable must print the same:
 * that is what lets a pointer survive a migration. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point { int x, y; const char *name; };

int initialized = 42;
int zeroed;
const double constants[3] = {1.5, 2.25, -3.125};
static const char *const names[] = {"alpha", "beta", "gamma"};
struct point points[2] = {{1, 2, "first"}, {3, 4, "second"}};
static int (*const hooks[])(const char *) = {puts, NULL};
static char buffer[64] = "initial contents";

static int helper(int v) { return v * 3; }

static void show(const char *what, const void *p) { printf("%-16s %p\n", what, p); }

static void dump(const char *what, const void *p, size_t n)
{
	const unsigned char *b = p;
	printf("%-16s", what);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", b[i]);
	printf("\n");
}

int main(void)
{
	static int calls;
	calls++;
	show("main", (void *)main);
	show("helper", (void *)helper);
	show("printf", (void *)printf);
	show("malloc", (void *)malloc);
	show("qsort", (void *)qsort);
	show("memcpy", (void *)memcpy);
	show("initialized", &initialized);
	show("zeroed", &zeroed);
	show("constants", constants);
	show("names", names);
	for (int i = 0; i < 3; i++)
		show(names[i], names[i]);
	show("literal", "a string literal");
	show("points", points);
	show("points[1].name", points[1].name);
	show("hooks[0]", (void *)hooks[0]);
	show("buffer", buffer);
	show("stdout", stdout);
	show("stderr", stderr);
	show("static local", &calls);
	/* Literals and tables inside libc that libc hands out. */
	show("setlocale", setlocale(LC_ALL, 0));
	show("strerror", strerror(2));
	dump("constants", constants, sizeof constants);
	dump("points", points, sizeof points);
	dump("names", names, sizeof names);
	dump("buffer", buffer, sizeof buffer);
	printf("helper(calls) = %d\n", helper(calls));
	return 0;
}
