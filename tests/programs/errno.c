// POPCORN-MIGRATE-RANDOM: 0.01
/* errno across migration points: the program sets errno, then runs code
 * whose migration points may move the thread or be refused (a frame below
 * holds a live va_list), and reads errno back.  A point the program did
 * not ask for must leave it as it was, whatever happened there (starting a
 * node sets errno at home).  A small chance per point: the first move, which
 * starts a node, then falls inside the loop. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int walk(int n)
{
	int sum = 0;
	for (int i = 0; i < n; i++)
		sum += i % 7;
	return sum;
}

__attribute__((noinline)) static int walk_with_va_list(int count, ...)
{
	va_list ap;
	va_start(ap, count);
	int sum = 0;
	for (int i = 0; i < count; i++)
		sum += walk(va_arg(ap, int));
	va_end(ap);
	return sum;
}

int main(void)
{
	long sum = 0;
	int changed = 0;
	for (int i = 0; i < 3000; i++) {
		errno = 1789;
		void *p = malloc(15 + i % 50);
		free(p);
		sum += walk(i % 100);
		sum += walk_with_va_list(2, i % 50, i % 30);
		if (errno != 1789)
			changed++;
	}
	printf("sum %ld, errno changed %d times\n", sum, changed);
	return 0;
}
