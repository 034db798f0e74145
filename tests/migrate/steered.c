/* The settings from outside the program (run-settings-test.sh):
 *   steered nodes    prints the node table the runtime read (POPCORN_NODES)
 *   steered sum      computes a sum; stderr says the node it ended on
 *   steered away     asks to move to node 1 (a tcp node no one serves:
 *                    the runtime's warning says what it tried to reach)
 *   steered signal   prints "ready", then waits to be sent to node 2 by
 *                    the shell's `kill -RTMIN` (twice: it comes home
 *                    itself in between), then to be brought home by a
 *                    third, sent while it is away, and prints the sum.  Before
 *                    "ready" it calls setrlimit with a second thread
 *                    running: musl's __synccall borrows the signal the
 *                    shell calls SIGRTMIN, and must give it back. */
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned long mix(unsigned long x)
{
	for (int k = 0; k < 64; k++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x ^ (x >> 31);
}

static unsigned long sum(void)
{
	unsigned long x = 1;
	for (int i = 0; i < 200000; i++)
		x += mix(x + (unsigned long)i);
	return x;
}

static double seconds_since(const struct timespec *from)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - from->tv_sec) + (now.tv_nsec - from->tv_nsec) / 1e9;
}

static volatile unsigned long sink;

/* Runs migration points until the thread is on NODE; 0 after 60 s. */
static int wait_until_on(int node)
{
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (popcorn_current_node() != node) {
		sink = mix(sink);
		if (seconds_since(&start) > 60)
			return 0;
	}
	return 1;
}

static int fds[2];

static void *waiting(void *unused)
{
	char c;
	(void)unused;
	return (void *)(long)read(fds[0], &c, 1);
}

/* setrlimit with two threads: musl runs it in each (__synccall). */
__attribute__((noinline)) static int synccall(void)
{
	pthread_t thread;
	struct rlimit core;
	if (pipe(fds) || pthread_create(&thread, 0, waiting, 0))
		return -1;
	int r = getrlimit(RLIMIT_CORE, &core) || setrlimit(RLIMIT_CORE, &core);
	if (write(fds[1], "x", 1) != 1 || pthread_join(thread, 0))
		return -1;
	return r;
}

__attribute__((noinline)) static int steered(void)
{
	if (synccall()) {
		printf("setrlimit with two threads failed\n");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	if (!wait_until_on(2)) {
		printf("the first signal did not move the thread\n");
		return 1;
	}
	printf("on node 2\n");
	if (popcorn_migrate(0)) {
		printf("cannot come home\n");
		return 1;
	}
	printf("home\n");
	fflush(stdout);
	if (!wait_until_on(2)) {
		printf("the second signal did not move the thread\n");
		return 1;
	}
	printf("on node 2 again\n");
	fflush(stdout);
	if (!wait_until_on(0)) {
		printf("the third signal, sent while the thread was away, did not bring it home\n");
		return 1;
	}
	printf("home again\n");
	printf("%lu\n", sum());
	return 0;
}

__attribute__((noinline)) static int print_nodes(void)
{
	for (int i = 0; i < popcorn_num_nodes(); i++) {
		const char *isa = popcorn_node_isa(i);
		printf("%d %s\n", i, isa ? isa : "-");
	}
	return 0;
}

__attribute__((noinline)) static int print_sum(void)
{
	printf("%lu\n", sum());
	fprintf(stderr, "ended on node %d\n", popcorn_current_node());
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "nodes"))
		return print_nodes();
	if (argc == 2 && !strcmp(argv[1], "sum"))
		return print_sum();
	if (argc == 2 && !strcmp(argv[1], "away"))
		return popcorn_migrate(1) ? 0 : 1;
	if (argc == 2 && !strcmp(argv[1], "signal"))
		return steered();
	fprintf(stderr, "usage: steered nodes|sum|away|signal\n");
	return 2;
}
