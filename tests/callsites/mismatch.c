/* Compiled twice, with and without -DVARIANT, to build a multi-ISA object
 * whose ISAs disagree: the link must refuse it and name the function. */
#include <stdio.h>

/* Recursive, so not bounded: calls to it get records. */
__attribute__((noinline)) int helper(int x) { return x > 0 ? helper(x - 1) * 7 + 1 : 1; }

int work(int n)
{
	int a = helper(n);
#ifdef VARIANT
	int b = helper(a) + n; /* a and n live across this call */
	return a + b;
#else
	return a + helper(n + 1);
#endif
}

int main(void)
{
	printf("%d\n", work(3));
	return 0;
}
