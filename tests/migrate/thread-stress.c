// MIGRATE-MIN: 8000
// MIGRATE-ENV:
// MIGRATE-ENV: POPCORN_MIGRATE=random=0.01;seed=3;nodes=1,0,2,0
/* Eight threads, a thousand trips each: every thread goes to a node (node
 * 2, and every tenth trip node 1, of the other ISA) and back a thousand
 * times, asking again while another thread is away (EBUSY: one is away at
 * a time), and on the node adds to a counter under a mutex the others
 * take at home meanwhile.  Each prints what it computed there. */
#include <errno.h>
#include <popcorn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

enum { Threads = 8, Trips = 1000 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter;

/* Until it is there, or there is no such node (a run with home alone). */
static void go(int node)
{
	while (popcorn_migrate(node) != 0 && errno == EBUSY)
		sched_yield();
}

static void *travel(void *arg)
{
	unsigned long id = (unsigned long)arg, sum = id;
	for (int trip = 0; trip < Trips; trip++) {
		go(trip % 10 == 9 ? 1 : 2);
		for (int i = 0; i < 50; i++)
			sum = sum * 6364136223846793005ul + (unsigned long)(trip ^ i);
		pthread_mutex_lock(&lock);
		counter += sum & 0xff;
		pthread_mutex_unlock(&lock);
		go(0);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t threads[Threads];
	for (unsigned long t = 0; t < Threads; t++)
		if (pthread_create(&threads[t], 0, travel, (void *)t))
			return 1;
	for (int t = 0; t < Threads; t++) {
		void *sum;
		pthread_join(threads[t], &sum);
		printf("thread %d: %lx\n", t, (unsigned long)sum);
	}
	printf("counter %lu\n", counter);
	return 0;
}
