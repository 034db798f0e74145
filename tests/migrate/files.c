// MIGRATE-MIN: 1
// STDIN: first line of input\nsecond line\n
/* Files across nodes: a file written on aarch64 is read at home, stdin is
 * read after a move, and stdout keeps program order across the moves. */
#define _GNU_SOURCE
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char path[] = "/tmp/popcorn-files-XXXXXX", line[128];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w+");
	printf("before the move\n");
	popcorn_migrate(1);
	printf("written away\n");
	fprintf(f, "a line written on the other node\n");
	fflush(f);
	if (fgets(line, sizeof line, stdin))
		printf("stdin: %s", line);
	popcorn_migrate(0);
	rewind(f);
	if (fgets(line, sizeof line, f))
		printf("read at home: %s", line);
	if (fgets(line, sizeof line, stdin))
		printf("stdin at home: %s", line);
	fclose(f);
	unlink(path);
	return 0;
}
