/* The arguments and environment at the top of the main thread's stack, as
 * the thread sees them at home, on node 1 and home again: their bytes must
 * not change.  Exits 1 (and says how) if they do. */
#include <popcorn.h>
#include <stdio.h>
#include <string.h>

extern char **environ;

static unsigned long checksum(char **strings)
{
	unsigned long sum = 0;
	for (; *strings; strings++)
		for (const char *c = *strings; *c; c++)
			sum = sum * 31 + (unsigned char)*c;
	return sum;
}

int main(int argc, char **argv)
{
	(void)argc;
	unsigned long home = checksum(argv) ^ checksum(environ);
	if (popcorn_migrate(1) != 0) {
		perror("arguments: popcorn_migrate");
		return 2;
	}
	unsigned long away = checksum(argv) ^ checksum(environ);
	popcorn_migrate(0);
	unsigned long back = checksum(argv) ^ checksum(environ);
	if (away != home || back != home) {
		printf("arguments: %lx at home, %lx on node 1, %lx back home\n", home, away, back);
		return 1;
	}
	return 0;
}
