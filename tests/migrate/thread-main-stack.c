// MIGRATE-MIN: 2
/* A thread away reads and writes the main thread's stack (an argument
 * that points there) and signals a condition variable the main thread
 * waits on, whose waiter musl keeps on the main thread's stack: a node
 * shares the main thread's stack once the program has threads, even one
 * that the main thread started alone and that kept the stack for it. */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int done;

static void *worker(void *arg)
{
	long *cell = arg;
	popcorn_migrate(1);
	long seen = cell[0];
	cell[1] = seen * 2 + 1;
	pthread_mutex_lock(&m);
	done = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	popcorn_migrate(0);
	return 0;
}

int main(void)
{
	long cell[2] = {20, 0};
	pthread_t t;
	popcorn_migrate(1); /* the node starts while the program runs one thread */
	popcorn_migrate(0);
	pthread_create(&t, 0, worker, cell);
	pthread_mutex_lock(&m);
	while (!done)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	printf("cell %ld %ld\n", cell[0], cell[1]);
	return 0;
}
