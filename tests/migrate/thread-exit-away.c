// MIGRATE-MIN: 1
// EXIT: 3
/* exit() from a thread away from home ends the program, every thread of
 * it, with the status it gives, after its atexit handlers; what the
 * threads printed before is all there.  The main thread waits in
 * pthread_join meanwhile. */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void last(void)
{
	printf("atexit handler\n");
}

static void *leave(void *arg)
{
	(void)arg;
	popcorn_migrate(1);
	printf("worker about to exit\n");
	exit(3);
}

static void *spin(void *arg)
{
	for (;;)
		usleep(1000);
	return arg;
}

int main(void)
{
	atexit(last);
	pthread_t worker, other;
	printf("main starts\n");
	fflush(stdout);
	pthread_create(&other, NULL, spin, NULL);
	pthread_create(&worker, NULL, leave, NULL);
	pthread_join(worker, NULL);
	printf("not reached\n");
	return 0;
}
