/* The price of a thread away while the others wait at home
 * (runtime/signals/HeldThreads.h), on two workloads of two threads:
 *
 *   private  each thread sums its own array: no thread waits for the other
 *   locked   both increment one counter under a mutex, in turns
 *
 * Run as `threads WORKLOAD WHERE`, WHERE `home` (both stay) or `split`
 * (the second thread moves to node 2 first).  Prints the work done and the
 * wall time in milliseconds; bench/threads.sh runs both side by side. */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { Elements = 1 << 20, Passes = 60, Increments = 200000 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static int split;

static void *sum_own(void *arg)
{
	long *a = malloc(Elements * sizeof *a), sum = 0;
	for (long i = 0; i < Elements; i++)
		a[i] = i ^ (long)arg;
	for (int p = 0; p < Passes; p++)
		for (long i = 0; i < Elements; i++)
			sum += a[i] >> (p & 3);
	free(a);
	return (void *)sum;
}

static void *increment(void *arg)
{
	(void)arg;
	for (int i = 0; i < Increments; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return 0;
}

static void *second(void *work)
{
	if (split && popcorn_migrate(2) != 0)
		fprintf(stderr, "threads: the second thread stays home\n");
	void *r = ((void *(*)(void *))work)((void *)1);
	if (split)
		popcorn_migrate(0);
	return r;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "private") && strcmp(argv[1], "locked")) ||
	    (strcmp(argv[2], "home") && strcmp(argv[2], "split"))) {
		fprintf(stderr, "usage: threads private|locked home|split\n");
		return 2;
	}
	void *(*work)(void *) = strcmp(argv[1], "private") ? increment : sum_own;
	split = !strcmp(argv[2], "split");
	if (split) { /* the node starts before the clock does */
		popcorn_migrate(2);
		popcorn_migrate(0);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_t t;
	void *r1, *r2;
	pthread_create(&t, 0, second, (void *)work);
	r1 = work(0);
	pthread_join(t, &r2);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	printf("%s %s: result %ld, %ld ms\n", argv[1], argv[2],
	       work == increment ? counter : (long)r1 + (long)r2, ms);
	return 0;
}
