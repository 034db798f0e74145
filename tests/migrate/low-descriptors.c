// MIGRATE-MIN: 8
/* The runtime's own descriptors (its links to the nodes it starts) stay
 * out of the program's way: a descriptor the program closed stays closed
 * and the lowest free one is what it is in a run that stays home, on
 * whichever node the call runs (gnulib's test-fcntl and test-cloexec check
 * so), closing every descriptor (close, close_range) does not cut them
 * and dup2 onto one
 * gives the program that number, while a forked child closes its
 * copies. */
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int fd = dup(1);
	int fd2 = dup(fd);
	close(fd2);
	popcorn_migrate(2); /* node 2 starts now */
	printf("on node 2: closed stays closed %d, next free +%d\n",
	       fcntl(fd2, F_GETFD) == -1, fcntl(fd, F_DUPFD, 0) - fd);
	close(fd2);
	popcorn_migrate(0);
	popcorn_migrate(1); /* and node 1 */
	popcorn_migrate(0);
	printf("at home: closed stays closed %d, next free +%d\n", fcntl(fd2, F_GETFD) == -1,
	       dup(fd) - fd);
	/* A daemon closes every descriptor past the standard streams: the
	 * thread still moves, home's links being none of them. */
	int closed = 0;
	for (int i = 3; i < 1024; i++)
		closed += close(i) == 0;
	popcorn_migrate(2);
	popcorn_migrate(1);
	popcorn_migrate(0);
	printf("closed %d, still moving\n", closed);
	/* close_range over everything past stderr, as newer daemons do, at
	 * home and on a node: the program's go, the thread still moves. */
	int kept_open = dup(1);
	popcorn_migrate(2);
	long closed_range = syscall(SYS_close_range, 3, ~0u, 0);
	popcorn_migrate(1);
	popcorn_migrate(0);
	kept_open = dup(1) - kept_open; /* 0: the same lowest free one again */
	syscall(SYS_close_range, 3, ~0u, 0);
	popcorn_migrate(2);
	popcorn_migrate(0);
	printf("close_range: %ld, lowest free again %d, still moving\n", closed_range, kept_open);
	close(3);
	/* dup2 onto the top descriptors of the first 1024 (the runtime keeps
	 * its own there) gives them to the program, at home and on a node,
	 * and the thread still moves. */
	struct rlimit limit;
	int top = 1024;
	if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 1024)
		top = (int)limit.rlim_cur;
	int taken = 0, open = 0;
	for (int i = top - 16; i < top; i++)
		taken += dup2(1, i) == i;
	popcorn_migrate(2);
	popcorn_migrate(1);
	for (int i = top - 32; i < top - 16; i++)
		taken += dup2(1, i) == i;
	popcorn_migrate(2);
	popcorn_migrate(0);
	for (int i = top - 32; i < top; i++) {
		open += fcntl(i, F_GETFD) != -1;
		close(i);
	}
	printf("dup2 onto the top: %d taken, %d open, still moving\n", taken, open);
	/* A forked child's copies of the runtime's descriptors are its own
	 * to close: after closing everything it holds nothing past stderr. */
	pid_t child = fork();
	if (child == 0) {
		for (int i = 3; i < 1024; i++)
			close(i);
		int open = 0;
		for (int i = 3; i < 1024; i++)
			open += fcntl(i, F_GETFD) != -1;
		_exit(open);
	}
	int status = -1;
	waitpid(child, &status, 0);
	printf("a child that closes everything keeps %d open\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
