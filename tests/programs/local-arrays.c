/* Local arrays whose address never leaves their function (indexed at run
 * time, copied with memcpy) stay on the native stack, and every call-site
 * record carries their bytes: a move in any callee must leave them as they
 * were.  Two arrays in disjoint scopes (which a back end may lay out in the
 * same bytes on one ISA and not the other), one in each level of a
 * recursion, a matrix, one too large to stay native, and one a loop walks
 * with a pointer that starts from an address computed before a call. */
#include <stdio.h>
#include <string.h>

static const unsigned char seed[32] = "the quick brown fox jumps over";

/* Recursive, so it has migration points: a move can happen in it. */
__attribute__((noinline)) static unsigned long mix(unsigned long x, int depth)
{
	if (depth == 0)
		return x * 0x9e3779b97f4a7c15ul;
	return mix(x ^ (x >> 7), depth - 1) + (unsigned long)depth;
}

static unsigned long table_walk(int n)
{
	int table[64];
	for (int i = 0; i < 64; i++)
		table[i] = i * n + 3;
	unsigned long h = mix((unsigned long)n, 5);
	for (int i = 0; i < 64; i++)
		h = h * 31 + (unsigned long)table[(i * 7 + n) & 63];
	return h;
}

static unsigned long disjoint_scopes(int n)
{
	unsigned long h = 0;
	{
		long a[40];
		for (int i = 0; i < 40; i++)
			a[i] = (long)i * n;
		h += mix((unsigned long)a[n % 40], 3);
		for (int i = 0; i < 40; i++)
			h = h * 17 + (unsigned long)a[(i + n) % 40];
	}
	{
		long b[40];
		for (int i = 0; i < 40; i++)
			b[i] = (long)i - n;
		h += mix(h, 4);
		for (int i = 0; i < 40; i++)
			h = h * 13 + (unsigned long)b[(i * 3 + n) % 40];
	}
	return h;
}

static unsigned long levels(int depth, unsigned long x)
{
	unsigned char bytes[32];
	memcpy(bytes, seed, sizeof bytes);
	for (int i = 0; i < 32; i++)
		bytes[i] ^= (unsigned char)(x >> (i % 8));
	unsigned long below = depth ? levels(depth - 1, x * 3 + 1) : mix(x, 2);
	unsigned long h = below;
	for (int i = 0; i < 32; i++)
		h = h * 7 + bytes[(i * 5 + depth) & 31];
	return h;
}

static double matrix_trace(int n)
{
	double m[8][8];
	for (int i = 0; i < 8; i++) {
		for (int j = 0; j < 8; j++)
			m[i][j] = (double)(i * 8 + j) / (n + 1);
		m[i][(i + n) & 7] += (double)(mix((unsigned long)i, 2) & 0xff);
	}
	double t = 0;
	for (int i = 0; i < 8; i++)
		t += m[i][i] * m[(i + n) & 7][i];
	return t;
}

static unsigned long large(int n)
{
	unsigned int big[2048]; /* 8 KiB: on the object stack */
	for (int i = 0; i < 2048; i++)
		big[i] = (unsigned)(i * n);
	unsigned long h = mix((unsigned long)n, 3);
	for (int i = 0; i < 2048; i += 61)
		h = h * 3 + big[(i * 13 + n) & 2047];
	return h;
}

/* Loop strength reduction computes the loop's start address, weight + 4,
 * once in the entry block, and a call lies between it and the loop: the
 * back end must compute it again after the call (bzip2's huffman.c). */
__attribute__((noinline)) static unsigned long halve_rounds(const unsigned char *freq, int n,
								    int rounds)
{
	int weight[258];
	for (int i = 0; i < n; i++)
		weight[i + 1] = (freq[i] == 0 ? 1 : freq[i]) << 8;
	unsigned long h = 0;
	for (int round = 0;; round++) {
		if (h < (unsigned long)weight[1 + round % n])
			h = mix(h + (unsigned long)round, 2);
		if (round == rounds)
			break;
		for (int i = 1; i <= n; i++) {
			int j = weight[i] >> 8;
			weight[i] = (1 + j / 2) << 8;
		}
	}
	for (int i = 1; i <= n; i++)
		h = h * 7 + (unsigned long)weight[i];
	return h;
}

int main(void)
{
	unsigned long h = 0;
	double t = 0;
	for (int n = 1; n <= 200; n++) {
		h = h * 5 + table_walk(n);
		h = h * 5 + disjoint_scopes(n);
		h = h * 5 + levels(n % 12, (unsigned long)n);
		h = h * 5 + large(n);
		h = h * 5 + halve_rounds(seed, 1 + n % 32, n % 4);
		t += matrix_trace(n);
	}
	printf("hash %016lx trace %.6f\n", h, t);
	return 0;
}
