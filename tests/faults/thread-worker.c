/* A fault test's thread, not the main one: it moves to node argv[1] (a
 * node it starts, not a child of home's main thread) and computes there
 * without a call until killed, while the main thread waits for it. */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *work(void *node)
{
	if (popcorn_migrate((int)(long)node) != 0)
		return 0;
	fprintf(stderr, "working on node %d\n", popcorn_current_node());
	volatile unsigned long sum = 0;
	for (unsigned long i = 0;; i++)
		sum += i;
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc != 2 || pthread_create(&t, 0, work, (void *)(long)atoi(argv[1])))
		return 2;
	pthread_join(t, 0);
	return 0;
}
