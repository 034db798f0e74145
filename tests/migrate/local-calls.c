// MIGRATE-MIN: 2
/* Calls a node makes for itself (time, randomness, its processor): they
 * work on every node, as at home.  Each result is checked, not printed:
 * its value is the node's. */
#define _GNU_SOURCE
#include <popcorn.h>
#include <sched.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>

static int problems(void)
{
	int bad = 0;
	struct timespec t;
	unsigned char random[16];
	struct utsname name;
	cpu_set_t cpus;
	if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
		bad++;
	if (getrandom(random, sizeof random, 0) != (ssize_t)sizeof random)
		bad++;
	if (uname(&name) != 0 || !name.sysname[0])
		bad++;
	if (sched_getaffinity(0, sizeof cpus, &cpus) != 0 || CPU_COUNT(&cpus) < 1)
		bad++;
	if (sched_getcpu() < 0)
		bad++;
	return bad;
}

int main(void)
{
	int order[] = {2, 1, 0};
	printf("home: %d problems\n", problems());
	for (int i = 0; i < 3; i++) {
		popcorn_migrate(order[i]);
		printf("next: %d problems\n", problems());
	}
	return 0;
}
