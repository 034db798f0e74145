/* setjmp-cost DEPTH COUNT: COUNT setjmp/longjmp pairs, DEPTH frames above
 * the thread's base (run-setjmp-cost.sh counts their instructions). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static int pairs(long count)
{
	jmp_buf at;
	volatile int caught = 0;
	for (volatile long i = 0; i < count; i++)
		if (!setjmp(at))
			longjmp(at, 1);
		else
			caught++;
	return caught;
}

__attribute__((noinline)) static int at_depth(int depth, long count)
{
	volatile int here = depth;
	if (depth <= 1)
		return pairs(count);
	return at_depth(depth - 1, count) + here - here;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	printf("%d\n", at_depth(atoi(argv[1]), atol(argv[2])));
	return 0;
}
