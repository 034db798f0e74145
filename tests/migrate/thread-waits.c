// MIGRATE-MIN: 3
/* A thread away waits for a thread at home by reading a pipe it writes,
 * and by sleeping until it sets a flag: calls that may wait let the held
 * threads run (signals/HeldThreads.h), not only futex.  The nodes start
 * while the program runs one thread, so that the writer cannot be done
 * before the reader leaves. */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int p[2];
static volatile int flag;

static void *writer(void *arg)
{
	usleep(200000);
	if (write(p[1], "x", 1) != 1)
		return 0;
	usleep(100000);
	flag = 1;
	return arg;
}

int main(void)
{
	char c = 0;
	pthread_t t;
	popcorn_migrate(1);
	popcorn_migrate(2);
	popcorn_migrate(0);
	if (pipe(p) || pthread_create(&t, 0, writer, &t))
		return 1;
	popcorn_migrate(1);
	int n = (int)read(p[0], &c, 1);
	while (!flag)
		usleep(1000);
	popcorn_migrate(0);
	void *result;
	pthread_join(t, &result);
	printf("read %d '%c', flag %d, writer %s\n", n, c, flag, result == &t ? "ok" : "failed");
	return 0;
}
