// MIGRATE-MIN: 2
/* While a thread is away and makes no call that may wait, the program's
 * other threads do not run at home (signals/HeldThreads.h): a thread that
 * ticks every millisecond it runs at home ticks a few dozen times at most
 * (a millisecond after each 50 ms slice) while the main thread computes
 * on node 2 for about a second. */
#include <popcorn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

static volatile long ticks;
static volatile int stop;

static void *ticker(void *arg)
{
	while (!stop) {
		ticks++;
		usleep(1000);
	}
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, ticker, 0);
	popcorn_migrate(2); /* the node starts */
	popcorn_migrate(0);
	int moved = popcorn_migrate(2) == 0 && popcorn_current_node() == 2;
	/* Read there, after a call that lets the others run a moment and
	 * takes home's pages afresh. */
	sched_yield();
	long before = ticks;
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 1500000000ul; i++)
		x += i;
	sched_yield();
	long ticked = ticks - before;
	popcorn_migrate(0);
	stop = 1;
	pthread_join(t, 0);
	fprintf(stderr, "thread-held: moved %d, the other thread ticked %ld times\n", moved, ticked);
	printf("the other thread %s\n", !moved || ticked < 300 ? "waited" : "RAN");
	return 0;
}
