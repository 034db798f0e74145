/* Threads steered one by one from outside: run-ctl-threads.sh moves each
 * worker with popcorn-ctl migrate PID/TID while all three threads loop
 * through migration points.  Each worker prints its tid at start and, at
 * the end, the nodes it ran on; stdout has only the rounds' values, the
 * same wherever they ran.  The workers stop once the file named by the
 * argument exists, and give up after two minutes. */
#define _GNU_SOURCE
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned long scramble(unsigned long x, int i)
{
	return x * 2862933555777941757ul + (unsigned long)(i ^ 0x5a5a);
}

/* Not a leaf: migration points at entry and return.  It notes the node
 * it runs on before its next point: a thread that arrived notes the node
 * before it can leave again. */
__attribute__((noinline)) static unsigned long step(unsigned long x, int i, unsigned *visited)
{
	*visited |= 1u << popcorn_current_node();
	return scramble(x, i) ^ (x >> 31);
}

__attribute__((noinline)) static unsigned long round_of(unsigned long seed, unsigned *visited)
{
	unsigned long x = seed;
	for (int i = 0; i < 2000; i++)
		x = step(x, i, visited);
	return x;
}

struct worker {
	const char *stop;
	unsigned long seed, first;
	long wrong;
	unsigned visited; /* bit N: it ran on node N */
	int gave_up;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	fprintf(stderr, "worker %lu tid %d\n", w->seed, gettid());
	w->first = round_of(w->seed, &w->visited);
	time_t start = time(NULL);
	while (access(w->stop, F_OK) != 0) {
		if (round_of(w->seed, &w->visited) != w->first)
			w->wrong++;
		if (time(NULL) - start > 120) {
			w->gave_up = 1;
			break;
		}
		usleep(1000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct worker workers[2] = {{argc > 1 ? argv[1] : "stop", 1}, {argc > 1 ? argv[1] : "stop", 2}};
	pthread_t threads[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&threads[i], 0, work, &workers[i])) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], 0);
	for (int i = 0; i < 2; i++) {
		printf("worker %d: round %lu, rounds that differ %ld%s\n", i + 1, workers[i].first,
		       workers[i].wrong, workers[i].gave_up ? ", no stop file after 120 s" : "");
		fprintf(stderr, "worker %lu visited", workers[i].seed);
		for (int n = 0; n < 32; n++)
			if (workers[i].visited & (1u << n))
				fprintf(stderr, " %d", n);
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "main on node %d\n", popcorn_current_node());
	return 0;
}
