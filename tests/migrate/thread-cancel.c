// MIGRATE-MIN: 3
/* pthread_cancel of a thread away from home, waiting in
 * pthread_cond_wait or sleeping there: it ends at home, where it would
 * have ended, its cleanup handler run and PTHREAD_CANCELED its value.
 * Linking pthread_cancel makes musl's cancellable calls its own assembly,
 * which the runtime must still see on a node.  A pthread_kill to a thread
 * away runs its handler there. */
#include <popcorn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t got_usr1;
static int cleanups, ready;

static void cleanup(void *arg)
{
	(void)arg;
	cleanups++;
	pthread_mutex_unlock(&m);
}

static void *waiter(void *arg)
{
	(void)arg;
	popcorn_migrate(1);
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_broadcast(&cv);
	pthread_cleanup_push(cleanup, 0);
	for (;;)
		pthread_cond_wait(&cv, &m);
	pthread_cleanup_pop(0);
	return 0;
}

static void *sleeper(void *arg)
{
	(void)arg;
	popcorn_migrate(2);
	for (;;)
		sleep(1);
	return 0;
}

static void on_usr1(int signal)
{
	(void)signal;
	got_usr1++;
}

static void *target(void *arg)
{
	popcorn_migrate(1);
	while (!got_usr1)
		usleep(1000);
	popcorn_migrate(0);
	return arg;
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	pthread_t w, s, k;
	void *r;
	pthread_create(&w, 0, waiter, 0);
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
	usleep(20000);
	pthread_cancel(w);
	pthread_join(w, &r);
	printf("waiter cancelled %d, cleanup handlers %d\n", r == PTHREAD_CANCELED, cleanups);
	pthread_create(&s, 0, sleeper, 0);
	usleep(30000);
	pthread_cancel(s);
	pthread_join(s, &r);
	printf("sleeper cancelled %d\n", r == PTHREAD_CANCELED);
	pthread_create(&k, 0, target, &k);
	usleep(30000);
	pthread_kill(k, SIGUSR1);
	pthread_join(k, &r);
	printf("signalled thread returned %s, handler ran %d\n", r == &k ? "its value" : "WRONG",
	       (int)got_usr1);
	return 0;
}
