/* For the tests that make processes: a child's exit status (128 + the
 * signal if a signal ended it, -1 if it cannot be waited for), and some
 * work whose result is the same wherever it runs. */
#include <sys/wait.h>

static int status_of(pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static long work(int i)
{
	long s = 0;
	for (int k = 0; k < 1000; k++)
		s += (long)(k ^ i) * (k + i);
	return s;
}
