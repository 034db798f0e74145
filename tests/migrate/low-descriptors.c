// MIGRATE-MIN: 4
/* The runtime's own descriptors (its links to the nodes it starts) stay
 * out of the program's way: a descriptor the program closed stays closed
 * and the lowest free one is what it is in a run that stays home, on
 * whichever node the call runs (gnulib's test-fcntl and test-cloexec check
 * so), and closing every descriptor does not cut them. */
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
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
	return 0;
}
