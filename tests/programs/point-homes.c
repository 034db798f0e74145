// POPCORN-MIGRATE-EVERY: 3
// POPCORN-FLAGS: -fpopcorn-loop-period=64
/* Values that cross calls before and after a loop with migration points:
 * each is kept in one stack slot, its home, written before the first call
 * and read after the loop, while the loop's points come in between.  A
 * move at a point there builds the function's frame anew from the point's
 * record, which must carry those homes, or the reads after the loop find
 * what the new frame held.  Built here with a countdown on every back edge
 * (-fpopcorn-loop-period=64); point-homes-auto.c builds the same loops with
 * the points -fpopcorn-loop-period=auto places: a strip-mined counted loop,
 * a loop with two exits, a loop that calls a leaf, and a loop ended by a
 * sentinel alone, tested on its back edge and copied. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long trace;

/* A loop: a function with migration points of its own, whose calls have
 * records (a call to a leaf has none). */
__attribute__((noinline)) static void note(unsigned long v)
{
	do {
		trace = trace * 31 + (v & 7);
		v >>= 3;
	} while (v);
}

__attribute__((noinline)) static unsigned mix(unsigned x)
{
	return x * 2654435761u ^ x >> 13;
}

__attribute__((noinline)) static unsigned long counted(unsigned long seed, int n)
{
	unsigned long a = seed * 3, b = seed ^ 0x5555, c = seed + 77, d = seed * seed;
	unsigned long e = seed << 9, f = seed * 13, g = seed ^ 0xabcdef, h = seed + 1000;
	note(a);
	unsigned long s = 0;
	for (int i = 0; i < n; i++)
		s += (unsigned long)i * i ^ s >> 3;
	note(s);
	return a + b * 5 + c * 7 + d * 11 + (e ^ f) * 3 + (g ^ h) * 17 + s;
}

__attribute__((noinline)) static long two_exits(const unsigned char *bytes, long n, unsigned long seed)
{
	unsigned long a = seed * 5, b = seed | 1, c = seed >> 2, d = seed * 21;
	unsigned long e = seed + 9, f = seed * seed, g = seed ^ 0x77;
	note(b);
	long i = 0;
	while (i < n && bytes[i] != 0xff)
		i++;
	note((unsigned long)i);
	return (long)((a ^ b ^ c) + d * 3 + (e ^ f) * 5 + g) + i;
}

__attribute__((noinline)) static unsigned calls_leaf(unsigned seed, int n)
{
	unsigned a = seed * 9, b = seed + 3, c = seed * seed, d = seed ^ 0x1234;
	unsigned e = seed * 77, f = seed + 0x4321;
	note(a);
	unsigned acc = seed;
	for (int i = 0; i < n; i++)
		acc = mix(acc + (unsigned)i);
	note(acc);
	return (a ^ b ^ acc) + c * 3 + (d ^ e) * 5 + f;
}

/* The sentinel's loop: no bound but the byte it looks for. */
__attribute__((noinline)) static long sentinel(const unsigned char *bytes, unsigned long seed)
{
	unsigned long a = seed * 7, b = seed ^ 0x99, c = seed + 5, d = seed * 3;
	unsigned long e = seed << 2, f = seed * 11;
	note(a);
	long i = 0;
	while (bytes[i] != 0xff)
		i++;
	note((unsigned long)i);
	return (long)((a ^ b) + c * 3 + (d ^ e) * 5 + f) + i;
}

#ifndef POINT_HOMES_N
#define POINT_HOMES_N 20000
#endif

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : POINT_HOMES_N;
	unsigned char *bytes = malloc((size_t)n + 1);
	if (!bytes)
		return 1;
	for (int i = 0; i < n; i++)
		bytes[i] = (unsigned char)(i * 7 % 251);
	bytes[n] = 0xff;
	unsigned long sum = 0;
	for (int r = 0; r < 4; r++) {
		sum += counted((unsigned long)r + 11, n);
		sum += (unsigned long)two_exits(bytes, n, (unsigned long)r + 5);
		sum += calls_leaf((unsigned)r + 1, n);
		sum += (unsigned long)sentinel(bytes + n - n / 8, (unsigned long)r + 9);
	}
	printf("sum %lu trace %lu\n", sum, trace);
	free(bytes);
	return 0;
}
