/* Writes to stdout and stderr, runs atexit handlers and exits with a
 * non-zero status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int level;

static void cleanup(void)
{
	fprintf(stderr, "cleanup at level %d\n", level);
	printf("buffered stdout is flushed at exit\n");
}

static void fail(const char *what, int code)
{
	fprintf(stderr, "error: %s (code %d)\n", what, code);
	exit(code);
}

static void descend(int n)
{
	level = n;
	if (n == 5)
		fail("gave up at depth 5", 3 + n * 7);
	descend(n + 1);
}

int main(int argc, char **argv)
{
	(void)argv;
	atexit(cleanup);
	printf("argc %d\n", argc);
	fprintf(stderr, "warning: %s\n", strerror(ENOENT));
	fputs("partial line without newline", stdout);
	errno = EACCES;
	perror("perror says");
	descend(0);
	return 0;
}
