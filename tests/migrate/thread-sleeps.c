// MIGRATE-MIN: 2
/* A sleep of one thread goes on while another moves: holding the program's
 * threads at home interrupts it, and the kernel never restarts a sleep,
 * but the runtime does, to the time it would have ended.  With
 * pthread_cancel linked (never called here), sleeps are musl's cancellable
 * calls, made in assembly: the same. */
#include <errno.h>
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *mover(void *arg)
{
	usleep(100000);
	popcorn_migrate(1);
	popcorn_migrate(2);
	popcorn_migrate(0);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	pthread_create(&t, 0, mover, 0);
	if (argc > 99)
		pthread_cancel(t);
	struct timespec asked = {0, 600000000}, left = {0, 0};
	int r = nanosleep(&asked, &left);
	printf("nanosleep: %d (%s)\n", r, r ? strerror(errno) : "slept");
	pthread_create(&t, 0, mover, 0);
	printf("sleep(1) left %u\n", sleep(1));
	pthread_join(t, 0);
	return 0;
}
