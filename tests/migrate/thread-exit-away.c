// MIGRATE-MIN: 2
// EXIT: 3
/* A thread that ends away (pthread_exit) ends at home, where its joiner
 * gets its value.  exit() from a thread away from home ends the program,
 * every thread of it, with the status it gives, after its atexit handlers;
 * what the threads printed before is all there.  The main thread waits in
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

/* Ends away: its value reaches pthread_join at home. */
static void *end_away(void *arg)
{
	popcorn_migrate(2);
	pthread_exit(arg);
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
	pthread_t worker, other, ender;
	void *result;
	printf("main starts\n");
	pthread_create(&ender, NULL, end_away, &ender);
	pthread_join(ender, &result);
	printf("a thread that ended away returned %s\n", result == &ender ? "its value" : "WRONG");
	fflush(stdout);
	pthread_create(&other, NULL, spin, NULL);
	pthread_create(&worker, NULL, leave, NULL);
	pthread_join(worker, NULL);
	printf("not reached\n");
	return 0;
}
