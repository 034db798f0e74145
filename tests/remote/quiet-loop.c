/* Steered by popcorn-ctl while it computes without a word to home: no
 * system call home serves, no page to fetch, so a move asked for while it
 * is on a tcp: or ssh: node reaches it only through its link's signal
 * (runtime/signals/Steering.h), never in passing.
 *
 *   quiet-loop            the work alone (the run at home)
 *   quiet-loop N1 N2 ...  before the work, wait at each node in turn
 *                         until steered there (60 s at most for each)
 *
 * The output is the same either way: the work's result, and a line for
 * a wait that timed out. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned long step(unsigned long x, int i)
{
	return x * 2862933555777941757ul + (unsigned long)(i ^ 0x5a5a);
}

/* Not a leaf: a migration point at every call. */
__attribute__((noinline)) static unsigned long round_of(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = step(x, i) ^ (x >> 31);
	return x;
}

static double seconds(void)
{
	struct timespec t; /* read where the thread is: no word to home */
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	/* Where popcorn-ctl finds it waiting, for the test. */
	fprintf(stderr, "quiet-loop: started\n");
	for (int i = 1; i < argc; i++) {
		int node = atoi(argv[i]);
		double deadline = seconds() + 60;
		while (popcorn_current_node() != node && seconds() < deadline)
			sink = round_of(sink + 1);
		if (popcorn_current_node() != node)
			printf("not steered to node %d within 60 s\n", node);
	}
	unsigned long x = 1;
	for (int i = 0; i < 1000; i++)
		x = round_of(x);
	printf("result: %lu\n", x);
	return 0;
}
