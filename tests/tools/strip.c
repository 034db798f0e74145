/* The program tests/tools/strip.sh strips in every way a packager does and
 * then moves between x86-64 and aarch64: its output must be a native
 * run's.  round_of is what POPCORN_MIGRATE's at= names, which a stripped
 * file finds by its aarch64 image's symbols. */
#include <stdio.h>

/* Not a leaf: migration points at entry and return. */
__attribute__((noinline)) static unsigned long mix(unsigned long x, int i)
{
	return (x ^ (unsigned long)i) * 0x9e3779b97f4a7c15ul;
}

__attribute__((noinline)) unsigned long round_of(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = mix(x, i) + (x >> 29);
	return x;
}

int main(void)
{
	unsigned long x = 1;
	for (int r = 0; r < 30; r++) {
		x = round_of(x, 300);
		printf("round %d: %lx\n", r, x);
	}
	return 0;
}
