// MIGRATE-MIN: 2
// POPCORN-FLAGS: -fpopcorn-loop-period=16
// MIGRATE-ENV: POPCORN_MIGRATE=every=3;nodes=2,1
// MIGRATE-ENV: POPCORN_MIGRATE=every=3;nodes=1,2,0
/* A work queue under a mutex and a condition variable, whose workers move
 * from node to node at every third migration point (their loops have
 * points): the program's other threads run between two nodes' turns.
 * Holding them through the way from one node to the next crashed nodes
 * and starved the threads at home. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { Workers = 4, Tasks = 40, Loop = 3000 };

struct task {
	int id;
	struct task *next;
};

static struct task *head, *tail;
static int closing;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static unsigned long long results[Tasks];

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&lock);
		while (!head && !closing)
			pthread_cond_wait(&changed, &lock);
		struct task *t = head;
		if (t && !(head = t->next))
			tail = 0;
		pthread_mutex_unlock(&lock);
		if (!t)
			return 0;
		unsigned long long h = (unsigned long long)t->id;
		for (int i = 0; i < Loop; i++)
			h = h * 31 + (unsigned long long)i;
		results[t->id] = h;
		free(t);
	}
}

int main(void)
{
	pthread_t threads[Workers];
	for (int i = 0; i < Workers; i++)
		pthread_create(&threads[i], 0, worker, 0);
	for (int i = 0; i < Tasks; i++) {
		struct task *t = malloc(sizeof *t);
		t->id = i;
		t->next = 0;
		pthread_mutex_lock(&lock);
		if (tail)
			tail->next = t;
		else
			head = t;
		tail = t;
		pthread_cond_signal(&changed);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	closing = 1;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < Workers; i++)
		pthread_join(threads[i], 0);
	for (int i = 0; i < Tasks; i++)
		printf("task %2d: %llu\n", i, results[i]);
	return 0;
}
