// POPCORN-MIGRATE-NODES: 1,0, few points: most run while other threads do, and the main thread moves only alone
// POPCORN-MIGRATE-RANDOM: 1
/* (The workers' loops have points of their own, where the main thread
 * cannot move: each of the main thread's few points moves it.) */
/* __thread variables with pthreads: every thread counts in its own copy,
 * and in a global protected by a mutex. */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ITERATIONS 100000

static __thread long tls_counter;
static __thread int tls_initialized = 42;
static __thread char tls_name[16];
static long shared_total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct result {
	int index;
	long counter;
	int initial;
	int distinct;
	char name[16];
};

static long *counter_address(void)
{
	return &tls_counter;
}

static void *worker(void *arg)
{
	struct result *r = arg;
	r->initial = tls_initialized;
	tls_initialized = r->index;
	snprintf(tls_name, sizeof tls_name, "worker-%d", r->index);
	for (int i = 0; i < ITERATIONS * (r->index + 1); i++) {
		tls_counter++;
		if (i % 100 == 0) {
			pthread_mutex_lock(&lock);
			shared_total += 100;
			pthread_mutex_unlock(&lock);
		}
	}
	/* the address computed in a callee designates this thread's copy too */
	*counter_address() += 1;
	r->counter = tls_counter;
	r->distinct = tls_initialized == r->index;
	snprintf(r->name, sizeof r->name, "%s", tls_name);
	return NULL;
}

int main(void)
{
	pthread_t threads[THREADS];
	struct result results[THREADS];
	tls_counter = -1;
	snprintf(tls_name, sizeof tls_name, "main");
	for (int i = 0; i < THREADS; i++) {
		results[i].index = i;
		if (pthread_create(&threads[i], NULL, worker, &results[i])) {
			printf("pthread_create failed\n");
			return 1;
		}
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < THREADS; i++)
		printf("thread %d: counter %ld initial %d own copy %d name %s\n", results[i].index,
		       results[i].counter, results[i].initial, results[i].distinct, results[i].name);
	printf("main: counter %ld initialized %d name %s\n", tls_counter, tls_initialized, tls_name);
	printf("shared total %ld\n", shared_total);
	return 0;
}
