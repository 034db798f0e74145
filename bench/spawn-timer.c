/* How long a program takes to start, run and end, as a script sees it:
 * fork, exec, wait, RUNS times; prints the median in microseconds.  The
 * program's output goes to /dev/null; its environment is this one's.
 *
 *   spawn-timer RUNS PROGRAM [ARG...]
 *
 * Built by bench/startup.sh with the host's compiler and libc. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* One run's nanoseconds, or -1 if the program failed. */
static long long run_once(char **argv, int null_fd)
{
	long long start = now_ns();
	pid_t pid = fork();
	if (pid == 0) {
		dup2(null_fd, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return now_ns() - start;
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long runs = argc > 2 ? strtol(argv[1], NULL, 10) : 0;
	if (runs <= 0) {
		fprintf(stderr, "usage: spawn-timer RUNS PROGRAM [ARG...]\n");
		return 2;
	}
	int null_fd = open("/dev/null", O_WRONLY);
	long long *ns = malloc((size_t)runs * sizeof *ns);
	if (null_fd < 0 || !ns) {
		perror("spawn-timer");
		return 1;
	}
	for (long i = 0; i < runs; i++)
		if ((ns[i] = run_once(argv + 2, null_fd)) < 0) {
			fprintf(stderr, "spawn-timer: %s failed (run %ld)\n", argv[2], i + 1);
			return 1;
		}
	qsort(ns, (size_t)runs, sizeof *ns, by_value);
	printf("%.1f\n", ns[runs / 2] / 1000.0);
	return 0;
}
