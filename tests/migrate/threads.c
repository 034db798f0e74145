// MIGRATE-MIN: 40
// MIGRATE-ENV:
// MIGRATE-ENV: POPCORN_MIGRATE=random=0.02;seed=5
// MIGRATE-ENV: POPCORN_MIGRATE=every=7;nodes=1,2,0
/* Threads move one at a time while the program's others wait at home
 * (runtime/signals/HeldThreads.h): worker threads that move between nodes
 * 0, 1 and 2 share a counter under a mutex, pass items through a queue
 * under a condition variable, meet at barriers and read what the others
 * wrote, keep their __thread and pthread_key values, and end away from
 * home, joined or detached.  Every count printed is the same in a run that
 * never moves (node 0 alone). */
#include <errno.h>
#include <popcorn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

enum { Workers = 4, Rounds = 12, Items = 40 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static __thread long mine = -1;
static pthread_key_t key;
static int destroyed;

static void destroy(void *value)
{
	pthread_mutex_lock(&lock);
	destroyed += (int)(long)value;
	pthread_mutex_unlock(&lock);
}

/* Moves, waiting while another thread is away (one is at a time), and
 * counts the moves that reached their node in each part of the test: with
 * nodes to go to, each part must have moved (at least half the workers'
 * moves; under a schedule, or a loaded machine, a thread may find another
 * away longer than it waits). */
static atomic_int moves[4];

static void move_for(int part, int node)
{
	/* A thread at a barrier waits for the others: it does not wait for
	 * its turn to move. */
	int r, patience = part == 2 ? 0 : 2000;
	for (int tries = 0; (r = popcorn_migrate(node % 3)) != 0 && errno == EBUSY && tries < patience;
	     tries++)
		usleep(200);
	if (r == 0 && popcorn_current_node() == node % 3)
		atomic_fetch_add(&moves[part], 1);
}

static const char *moved(int part, int least)
{
	return popcorn_num_nodes() == 1 || atomic_load(&moves[part]) >= least ? "yes" : "NO";
}

static void *count(void *arg)
{
	long id = (long)arg;
	mine = id * 100;
	pthread_setspecific(key, (void *)(id + 1));
	for (int r = 0; r < Rounds; r++) {
		move_for(0, (int)id + r);
		for (int i = 0; i < 50; i++) {
			pthread_mutex_lock(&lock);
			counter += id + 1;
			pthread_mutex_unlock(&lock);
		}
		mine++;
	}
	long kept = mine == id * 100 + Rounds && (long)pthread_getspecific(key) == id + 1;
	move_for(0, (int)id + 1);
	/* Ends where it is: pthread_exit's value and the key's destructor. */
	pthread_exit((void *)(kept ? id + 10 : -1));
}

/* A queue of one slot, between a producer and a consumer that move. */
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int slot, full;

static void *produce(void *arg)
{
	(void)arg;
	for (int i = 1; i <= Items; i++) {
		if (i % 8 == 0)
			move_for(1, i / 8);
		pthread_mutex_lock(&lock);
		while (full)
			pthread_cond_wait(&changed, &lock);
		slot = i;
		full = 1;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *consume(void *arg)
{
	long sum = 0;
	for (int i = 1; i <= Items; i++) {
		if (i % 10 == 0)
			move_for(1, i / 10 + 1);
		pthread_mutex_lock(&lock);
		while (!full)
			pthread_cond_wait(&changed, &lock);
		sum += slot * i;
		full = 0;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	*(long *)arg = sum;
	return arg;
}

/* Barrier phases: each writes its cell, and after the barrier reads the
 * others'. */
static pthread_barrier_t barrier;
static long cells[3];
static long seen[3];

static void *phases(void *arg)
{
	long id = (long)arg;
	for (int phase = 1; phase <= 4; phase++) {
		move_for(2, (int)id + phase);
		cells[id] = id * 1000 + phase;
		pthread_barrier_wait(&barrier);
		for (int j = 0; j < 3; j++)
			seen[id] += cells[j];
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static sem_t detached_done;

static void *detached(void *arg)
{
	(void)arg;
	move_for(3, 2);
	sem_post(&detached_done);
	return NULL; /* ends on node 2, detached: its stack goes at home */
}

int main(void)
{
	pthread_key_create(&key, destroy);
	pthread_t threads[Workers];
	for (long i = 0; i < Workers; i++)
		pthread_create(&threads[i], NULL, count, (void *)i);
	long results = 0;
	for (int i = 0; i < Workers; i++) {
		void *result;
		pthread_join(threads[i], &result);
		results += (long)result;
	}
	printf("counter %ld, exit values %ld, destructors %d, workers moved: %s\n", counter,
	       results, destroyed, moved(0, Workers * Rounds / 2));

	long sum = 0;
	pthread_t producer, consumer;
	pthread_create(&producer, NULL, produce, NULL);
	pthread_create(&consumer, NULL, consume, &sum);
	pthread_join(producer, NULL);
	pthread_join(consumer, NULL);
	printf("queue sum %ld, producer and consumer moved: %s\n", sum, moved(1, 2));

	pthread_barrier_init(&barrier, NULL, 3);
	pthread_t phase_threads[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&phase_threads[i], NULL, phases, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(phase_threads[i], NULL);
	printf("barrier phases saw %ld %ld %ld, moved: %s\n", seen[0], seen[1], seen[2],
	       moved(2, 1));

	sem_init(&detached_done, 0, 0);
	for (int i = 0; i < 3; i++) {
		pthread_t t;
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_create(&t, &attr, detached, NULL);
		sem_wait(&detached_done);
	}
	mine = 7;
	move_for(3, 1);
	printf("detached threads and the main thread moved: %s, main thread's __thread %ld\n",
	       moved(3, 2), mine);
	move_for(3, 0);
	return 0;
}
