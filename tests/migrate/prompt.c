/* Loops that reach no migration point but the compiler's own, as a new
 * user's hot loops do: one that calls only a leaf (which has no point: it
 * has no loop and calls nothing), a counted one that calls nothing, and one
 * whose exit depends on the data.  run-prompt-test.sh moves the thread
 * while each runs.  Usage: prompt PHASE MILLIONS, PHASE one of leaf,
 * counted, uncounted: MILLIONS million iterations of the phase's loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static unsigned long mix(unsigned long x, unsigned long i)
{
	return (x ^ i) * 0x9e3779b97f4a7c15ul + (x >> 29);
}

__attribute__((noinline)) static unsigned long calls_leaf(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = mix(x, (unsigned long)i);
	return x;
}

__attribute__((noinline)) static unsigned long counted(unsigned long x, long n)
{
	for (long i = 0; i < n; i++)
		x = (x * 6364136223846793005ul + 1442695040888963407ul) ^ (x >> 33);
	return x;
}

/* Ends when the walk's top bits match and its count is spent: no trip
 * count the compiler can know. */
__attribute__((noinline)) static unsigned long uncounted(unsigned long x, long n)
{
	do {
		x = (x * 6364136223846793005ul + 1442695040888963407ul) ^ (x >> 33);
		n -= (long)(x & 1);
	} while (n > 0 || (x >> 62) != 3);
	return x;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: prompt leaf|counted|uncounted MILLIONS\n");
		return 2;
	}
	long n = atol(argv[2]) * 1000000;
	unsigned long x;
	if (strcmp(argv[1], "leaf") == 0)
		x = calls_leaf(1, n);
	else if (strcmp(argv[1], "counted") == 0)
		x = counted(1, n);
	else if (strcmp(argv[1], "uncounted") == 0)
		x = uncounted(1, 2 * n);
	else {
		fprintf(stderr, "prompt: no phase '%s'\n", argv[1]);
		return 2;
	}
	printf("%s %s: %016lx\n", argv[1], argv[2], x);
	return 0;
}
