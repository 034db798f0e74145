// MIGRATE-MIN: 6
/* A program started with standard input and output closed (`prog <&- >&-`)
 * still has them closed after it moved: none of the runtime's own
 * descriptors (its control socket, its links to the nodes) takes their
 * place, where the program would read or write them.  The program closes
 * them and runs itself again; it exits 3 if a read or write of them does
 * not fail with EBADF. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>
#include <unistd.h>

static int closed(int fd)
{
	char c = 'x';
	errno = 0;
	ssize_t n = fd == 0 ? read(fd, &c, 1) : write(fd, &c, 1);
	return n == -1 && errno == EBADF;
}

int main(int argc, char **argv)
{
	if (argc == 1) {
		close(0);
		close(1);
		char *again[] = {argv[0], "closed", NULL};
		execv("/proc/self/exe", again);
		return 2;
	}
	for (int i = 0; i < 3; i++) {
		popcorn_migrate(2);
		popcorn_migrate(1);
		popcorn_migrate(0);
	}
	int ok = closed(0) && closed(1);
	fprintf(stderr, "closed-stdio: stdin and stdout %s\n", ok ? "still closed" : "open");
	return ok ? 0 : 3;
}
