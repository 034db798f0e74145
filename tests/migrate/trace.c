/* A program to trace (run-trace-test.sh): it moves to aarch64 (node 1) and
 * another x86-64 process (node 2) and back, touches heap pages and writes a
 * file on each, and prints how many times it moved.  With the argument
 * "away" it ends the program on node 1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int moves;

static void move(int node)
{
	int from = popcorn_current_node();
	if (popcorn_migrate(node) == 0 && from != node)
		moves++;
}

/* Reads and writes every page of a: page faults away from home. */
static unsigned long touch(unsigned char *a, size_t bytes, int salt)
{
	unsigned long sum = 0;
	for (size_t i = 0; i < bytes; i += 4096) {
		a[i] += (unsigned char)salt;
		sum += a[i];
	}
	return sum;
}

/* open, write and close at home, whichever node calls them. */
static void note(const char *path, int node)
{
	char line[64];
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	int n = snprintf(line, sizeof line, "on node %d\n", node);
	if (fd < 0 || write(fd, line, n) != n)
		printf("cannot write %s\n", path);
	close(fd);
}

int main(int argc, char **argv)
{
	size_t bytes = 64 * 4096;
	unsigned char *a = calloc(bytes, 1);
	unsigned long sum = 0;
	char path[] = "/tmp/popcorn-trace-XXXXXX";
	close(mkstemp(path));
	for (int round = 0; round < 3; round++) {
		move(1);
		sum += touch(a, bytes, round);
		note(path, popcorn_current_node());
		move(0);
		sum += touch(a, bytes, round + 10);
		move(2);
		sum += touch(a, bytes, round + 20);
		note(path, popcorn_current_node());
		move(0);
	}
	unlink(path);
	if (argc > 1 && !strcmp(argv[1], "away"))
		move(1);
	printf("checksum %lu\nmigrations: %d\n", sum, moves);
	return 0;
}
