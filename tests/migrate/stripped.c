// MIGRATE-MIN: 2
// POPCORN-FLAGS: -s
// MIGRATE-ENV: POPCORN_MIGRATE=every=7;nodes=1,0,2,0
/* A program linked with -s (no symbol table) moves like any other: the
 * thread bases of the migration metadata are found by name while
 * popcorn-ld links, and the symbols are dropped only after.  Once every
 * stack walk of a stripped program stopped at _start, short of the
 * base, and no thread of it ever moved. */
#include <stdio.h>

/* Not a leaf: migration points at entry and return. */
__attribute__((noinline)) static unsigned long mix(unsigned long x, int i)
{
	return (x ^ (unsigned long)i) * 0x9e3779b97f4a7c15ul;
}

__attribute__((noinline)) static unsigned long round_of(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = mix(x, i) + (x >> 29);
	return x;
}

int main(void)
{
	unsigned long x = 1;
	for (int r = 0; r < 40; r++) {
		x = round_of(x, 500);
		printf("round %d: %lx\n", r, x);
	}
	return 0;
}
