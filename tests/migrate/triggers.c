// MIGRATE-MIN: 1
// MIGRATE-ENV: POPCORN_MIGRATE=every=40;nodes=1,0,2,0
// MIGRATE-ENV: POPCORN_MIGRATE=random=0.05;seed=11;nodes=2,0,1,0
// MIGRATE-ENV: POPCORN_MIGRATE=after=20ms
// MIGRATE-ENV: POPCORN_MIGRATE=at=checkpoint
// MIGRATE-ENV: X86_64_MIGRATE_START={start:checkpoint} X86_64_MIGRATE_END={end:checkpoint}
// MIGRATE-ENV: TRIGGERS_RAISE=1
// MIGRATE-ERROR: POPCORN_MIGRATE=at=scramble => at=scramble: the function has no migration point
// MIGRATE-ERROR: POPCORN_MIGRATE=at=nowhere => at=nowhere: no such function in the program
/* Moves without a line of migration code: schedules of POPCORN_MIGRATE,
 * Popcorn's code-range variables, and SIGRTMIN (raised by the program
 * itself when TRIGGERS_RAISE is set).  The loop runs long enough for the
 * after= timer to fire. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) static unsigned long scramble(unsigned long x, int i)
{
	return x * 2862933555777941757ul + (unsigned long)abs(i - 500);
}

/* Not bounded (a loop): it has a migration point, and so have its callers.
 * A function without loops that calls only such functions has none. */
__attribute__((noinline)) static unsigned long step(unsigned long x, int i)
{
	for (unsigned long k = 0; k < (x >> 59); k++)
		x = scramble(x, i + k);
	return x ^ (x >> 29);
}

__attribute__((noinline)) unsigned long checkpoint(unsigned long x)
{
	return step(x, 7) ^ (x >> 3);
}

static double seconds(const struct timespec *from)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - from->tv_sec + (now.tv_nsec - from->tv_nsec) / 1e9;
}

int main(void)
{
	unsigned long x = 1;
	for (int r = 0; r < 5; r++) {
		for (int i = 0; i < 1000; i++)
			x = step(x, i);
		if (r == 2) {
			x = checkpoint(x);
			if (getenv("TRIGGERS_RAISE"))
				raise(SIGRTMIN);
		}
	}
	printf("%lu\n", x);
	/* Long enough for after=: how often this loop runs depends on the
	 * machine, so it prints nothing. */
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	volatile unsigned long sink = 0;
	while (seconds(&start) < 0.1)
		for (int i = 0; i < 1000; i++)
			sink = step(sink, i);
	return 0;
}
