/* A thread that computes on node argv[1] for argv[2] seconds without a
 * page fault or a system call home, then at home as long while the node
 * waits idle, then goes back: both waits are longer than POPCORN_TIMEOUT,
 * and a silent peer is not a dead one. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t); /* runs on the node itself */
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int node = atoi(argv[1]);
	double wait = atof(argv[2]);
	int moved = popcorn_migrate(node) == 0;
	double start = seconds();
	unsigned long rounds = 0;
	while (seconds() - start < wait)
		rounds++;
	popcorn_migrate(0);
	for (start = seconds(); seconds() - start < wait;)
		rounds++;
	int again = popcorn_migrate(node) == 0;
	popcorn_migrate(0);
	printf("%s, computed %s, %s\n", moved ? "moved" : "stayed", rounds ? "a while" : "nothing",
	       again ? "moved again" : "the node was gone");
	return 0;
}
