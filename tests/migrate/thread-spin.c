// MIGRATE-MIN: 2
/* A thread away from home that waits for another in a loop without a
 * system call, on a C11 atomic flag and a pthread spin lock, still sees it
 * done: while the others wait at home (signals/HeldThreads.h), home asks
 * the thread away to let them run after each slice it computes alone. */
#include <popcorn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int flag;
static atomic_long turns;
static pthread_spinlock_t spin;
static long shared;

/* Sets the flag once the waiter has moved and is waiting for it. */
static void *setter(void *arg)
{
	(void)arg;
	while (atomic_load(&turns) == 0)
		;
	atomic_store(&flag, 1);
	return NULL;
}

/* Takes the spin lock in turns with the main thread. */
static void *locker(void *arg)
{
	for (int i = 0; i < 200; i++) {
		pthread_spin_lock(&spin);
		shared += (long)arg;
		pthread_spin_unlock(&spin);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, setter, NULL);
	popcorn_migrate(1);
	atomic_store(&turns, 1);
	long spins = 0;
	while (!atomic_load(&flag))
		spins++;
	pthread_join(t, NULL);
	printf("flag seen\n");
	popcorn_migrate(0);

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	pthread_t lockers[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&lockers[i], NULL, locker, (void *)(i + 1));
	popcorn_migrate(2);
	for (int i = 0; i < 200; i++) {
		pthread_spin_lock(&spin);
		shared += 10;
		pthread_spin_unlock(&spin);
	}
	popcorn_migrate(0);
	for (int i = 0; i < 2; i++)
		pthread_join(lockers[i], NULL);
	printf("spin lock total %ld\n", shared);
	return spins < 0;
}
