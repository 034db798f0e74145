// MIGRATE-MIN: 3
/* Moves from under a sibling call: a function ending in `return f(...)`
 * whose callee takes more arguments than go in registers on x86-64 (6
 * integers) but fewer than on aarch64 (8) could be a jump on one ISA and a
 * call on the other, leaving a frame on one stack only; such calls are
 * calls on both, and recorded (m4's create_pipe_bidi, ten arguments,
 * refused the move home from aarch64 before its posix_spawnp).  Calls
 * whose arguments all go in registers stay jumps. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>

/* Whether each move was refused for the stack (EAGAIN; a run that stays
 * home is refused for the node, EINVAL). */
static int refused[8], steps;

static void move(int node)
{
	refused[steps++] = popcorn_migrate(node) != 0 && errno == EAGAIN;
}

__attribute__((noinline)) static long many(long a, long b, long c, long d, long e, long f,
                                           long g, long h, long i, long j)
{
	move(0);
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

/* Fewer arguments than its callee: the callee's do not fit where its own came. */
__attribute__((noinline)) static long few(long x, long y)
{
	return many(x, y, x + y, x - y, x * y, x ^ y, x | y, x & y, x + 1, y + 1);
}

__attribute__((noinline)) static long two(long x, long y)
{
	move(2);
	return x * 31 + y;
}

/* All in registers: a jump on both ISAs, no frame of its own. */
__attribute__((noinline)) static long registers(long x, long y) { return two(y, x); }

int main(void)
{
	popcorn_migrate(1);
	long sum = few(3, 4);
	popcorn_migrate(1);
	sum += few(5, 6);
	sum += registers(7, 8);
	popcorn_migrate(0);
	printf("sum %ld\n", sum);
	for (int i = 0; i < steps; i++)
		printf("move %d refused for the stack: %d\n", i, refused[i]);
	return 0;
}
