// MIGRATE-MIN: 2
/* A thread that ends away ends at home, where its key destructor runs
 * and cannot move it (its end is home's kernel thread's). */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_key_t key;
static int refused, ran, where = -1;

static void destroy(void *v)
{
	ran += (int)(long)v;
	refused = popcorn_migrate(2) != 0;
	where = popcorn_current_node();
}

static void *worker(void *arg)
{
	pthread_setspecific(key, (void *)5L);
	popcorn_migrate(1);
	return arg;
}

int main(void)
{
	pthread_t t;
	void *r;
	pthread_key_create(&key, destroy);
	popcorn_migrate(2);
	popcorn_migrate(0);
	pthread_create(&t, 0, worker, &t);
	pthread_join(t, &r);
	printf("result %s, destructor %d on node %d, its move refused %d\n", r == &t ? "ok" : "wrong",
	       ran, where, refused);
	return 0;
}
