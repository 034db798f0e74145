// POPCORN-MIGRATE-EVERY: 7
// POPCORN-FLAGS: -fpopcorn-loop-period=16
/* Loops with migration points on their back edges (-fpopcorn-loop-period):
 * nested counted loops, a while loop with several exits, a loop with calls
 * and a loop whose body is a single block.  With POPCORN_CHECK_UNWIND=1
 * every 16th iteration walks the stack from inside the loop. */
#include <stdio.h>
#include <string.h>

static unsigned long collatz_steps(unsigned long n)
{
	unsigned long steps = 0;
	while (n != 1) {
		n = n & 1 ? 3 * n + 1 : n / 2;
		steps++;
		if (steps > 100000)
			return 0;
	}
	return steps;
}

static double matrix[24][24];

static double nested(int n)
{
	double trace = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			matrix[i][j] = (i + 1) * 0.5 + j * 0.25;
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				matrix[i][j] = matrix[i][j] * 0.75 + matrix[j][i] * 0.25;
	for (int i = 0; i < n; i++)
		trace += matrix[i][i];
	return trace;
}

static int find_first(const char *s, const char *set)
{
	int i = 0;
	for (;;) {
		if (!s[i])
			return -1;
		if (strchr(set, s[i]))
			return i;
		i++;
	}
}

int main(void)
{
	unsigned long longest = 0, at = 0;
	for (unsigned long n = 1; n < 3000; n++) {
		unsigned long s = collatz_steps(n);
		if (s > longest)
			longest = s, at = n;
	}
	printf("longest collatz below 3000: %lu steps from %lu\n", longest, at);
	printf("nested trace %.6f\n", nested(24));
	printf("first vowel at %d, first digit at %d\n",
	       find_first("rhythm and blues", "aeiou"), find_first("no digits here", "0123456789"));
	return 0;
}
