// MIGRATE-MIN: 3
/* A node started while the program has a pipe open must not keep the
 * program's end of it: once the program closes its write end, its reader
 * sees the end of the data (no node holds another write end).  m4's
 * esyscmd hung so, when the thread first left home while its child ran. */
#include <popcorn.h>
#include <stdio.h>
#include <unistd.h>

static int drain(int fd)
{
	char buf[64];
	int total = 0;
	for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
		total += (int)n;
	return total;
}

int main(void)
{
	alarm(20); /* a reader that waits for ever ends the test */
	for (int node = 2; node >= 1; node--) {
		int fds[2];
		if (pipe(fds))
			return 1;
		if (write(fds[1], "through the pipe", 16) != 16)
			return 1;
		popcorn_migrate(node); /* the node starts with the pipe open */
		popcorn_migrate(0);
		close(fds[1]);
		printf("node %d: %d bytes, then the end\n", node, drain(fds[0]));
		close(fds[0]);
	}
	/* And read on a node: home reads for it. */
	int fds[2];
	if (pipe(fds) || write(fds[1], "again", 5) != 5)
		return 1;
	close(fds[1]);
	popcorn_migrate(2);
	printf("on node 2: %d bytes, then the end\n", drain(fds[0]));
	popcorn_migrate(0);
	return 0;
}
