/* Threads follow POPCORN_MIGRATE each on its own course: run-thread-schedules.sh
 * runs this with a schedule and checks each thread's trail of nodes.
 *
 *   thread-schedules PRELUDE
 *
 * The main thread takes PRELUDE steps, then runs two workers one after
 * the other (each alone, so that no move is refused for another's trip),
 * then takes its own steps again.  Each of the three records the node it
 * is on after every step, and prints its trail to stderr; stdout has only
 * what they computed, the same wherever they ran.  stderr has their tids. */
#define _GNU_SOURCE
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { Steps = 600 };

/* A loop whose count the compiler cannot bound: a migration point. */
__attribute__((noinline)) static unsigned long step(unsigned long x, int n)
{
	for (int k = 0; k < n; k++)
		x = x * 6364136223846793005ul + (unsigned long)k;
	return x ^ (x >> 31);
}

struct walk {
	unsigned long seed, result;
	int tid;
	char trail[Steps + 1];
};

static void *walk(void *arg)
{
	struct walk *w = arg;
	unsigned long x = w->seed;
	w->tid = gettid();
	for (int i = 0; i < Steps; i++) {
		x = step(x, i % 5 + 1);
		w->trail[i] = (char)('0' + popcorn_current_node());
	}
	w->trail[Steps] = 0;
	w->result = x;
	popcorn_migrate(0); /* it ends at home, where its trace ends too */
	return 0;
}

int main(int argc, char **argv)
{
	int prelude = argc > 1 ? atoi(argv[1]) : 0;
	unsigned long x = 5;
	for (int i = 0; i < prelude; i++)
		x = step(x, i % 5 + 1);
	struct walk workers[2] = {{.seed = 11}, {.seed = 11}};
	for (int t = 0; t < 2; t++) {
		pthread_t thread;
		if (pthread_create(&thread, 0, walk, &workers[t]) || pthread_join(thread, 0)) {
			perror("thread");
			return 1;
		}
	}
	struct walk own = {.seed = x};
	walk(&own);
	printf("%lu %lu %lu\n", workers[0].result, workers[1].result, own.result);
	fprintf(stderr, "trail worker1 %s\ntrail worker2 %s\ntrail main %s\n", workers[0].trail,
		workers[1].trail, own.trail);
	fprintf(stderr, "tid worker1 %d\ntid worker2 %d\ntid main %d\n", workers[0].tid, workers[1].tid,
		own.tid);
	return 0;
}
