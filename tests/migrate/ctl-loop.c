/* Steered from outside: run-ctl-test.sh moves the thread with popcorn-ctl
 * while this loops through migration points.  Every round computes the
 * same value wherever it runs and is checked against the first.  It stops
 * once the file named by its argument exists (after 50 rounds if it does
 * from the start) and gives up after two minutes.
 *
 * Before that, what the control socket must not change: the number of
 * the first descriptor the program opens, a forked child that ends
 * leaves its parent's socket alone, and the program may dup2 onto the
 * socket's number. */
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned long scramble(unsigned long x, int i)
{
	return x * 2862933555777941757ul + (unsigned long)(i ^ 0x5a5a);
}

/* Not a leaf: migration points at entry and return. */
__attribute__((noinline)) static unsigned long step(unsigned long x, int i)
{
	return scramble(x, i) ^ (x >> 31);
}

__attribute__((noinline)) static unsigned long round_of(unsigned long seed)
{
	unsigned long x = seed;
	for (int i = 0; i < 2000; i++)
		x = step(x, i);
	return x;
}

int main(int argc, char **argv)
{
	const char *stop = argc > 1 ? argv[1] : NULL;
	int fd = open("/dev/null", O_RDONLY);
	printf("first descriptor: %d\n", fd);
	close(fd);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		/* CTL_LOOP_CHILD_LINGERS=N: the child outlives a parent killed
		 * meanwhile, holding its copy of the parent's control socket. */
		const char *linger = getenv("CTL_LOOP_CHILD_LINGERS");
		if (linger)
			sleep((unsigned)atoi(linger));
		exit(0);
	}
	int status = -1;
	if (child < 0 || waitpid(child, &status, 0) != child || status != 0)
		printf("fork: child %d, status %d\n", (int)child, status);
	/* The program takes the top descriptors of the first 1024, where the
	 * control socket is: it moves, and popcorn-ctl still reaches it. */
	struct rlimit limit;
	int top = 1024;
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 1024)
		top = (int)limit.rlim_cur;
	for (int i = top - 4; i < top; i++) {
		if (dup2(1, i) != i)
			printf("dup2 onto %d failed\n", i);
		close(i);
	}
	/* Read anew each round: the compiler must not fold the rounds into one. */
	static volatile unsigned long seed = 1;
	unsigned long first = round_of(seed);
	long rounds = 0, wrong = 0;
	time_t start = time(NULL);
	do {
		if (round_of(seed) != first)
			wrong++;
		rounds++;
		if (time(NULL) - start > 120) {
			fprintf(stderr, "ctl-loop: no stop file after 120 s\n");
			return 3;
		}
		usleep(2000);
	} while (rounds < 50 || (stop && access(stop, F_OK) != 0));
	printf("round: %lu\n", first);
	printf("rounds that differ: %ld\n", wrong);
	printf("node at the end: %d\n", popcorn_current_node());
	return 0;
}
