// MIGRATE-MIN: 3
/* longjmp after a move: to a jmp_buf filled at home, from aarch64 (node 1)
 * and from another x86-64 process (node 2, another stack region); to one
 * filled on aarch64, from home; and out of nested calls, from a chain of
 * handlers kept in the heap. */
#include <popcorn.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

struct handler {
	jmp_buf at;
	struct handler *outer;
};
static struct handler *handlers;

__attribute__((noinline)) static void fail(int code, int node)
{
	popcorn_migrate(node);
	longjmp(handlers->at, code);
}

__attribute__((noinline)) static int deep(int n, int code, int node)
{
	volatile int here = n;
	if (n == 0)
		fail(code, node);
	return deep(n - 1, code, node) + here;
}

/* Runs deep(), which fails on NODE; returns the code it failed with. */
static int protected(int code, int node)
{
	struct handler *h = malloc(sizeof *h);
	volatile int kept = code * 10;
	h->outer = handlers;
	handlers = h;
	int got = setjmp(h->at);
	if (got == 0) {
		deep(20, code, node);
		printf("not reached\n");
	}
	handlers = h->outer;
	free(h);
	if (kept != code * 10)
		printf("a local changed across the longjmp: %d\n", kept);
	return got;
}

int main(void)
{
	printf("from aarch64: %d\n", protected(3, 1));
	popcorn_migrate(0);
	printf("from node 2: %d\n", protected(4, 2));
	popcorn_migrate(0);
	popcorn_migrate(1); /* set on aarch64, jump at home */
	printf("from home, set away: %d\n", protected(5, 0));
	popcorn_migrate(0);
	printf("nested: %d\n", protected(protected(6, 1) + 1, 2));
	popcorn_migrate(0);
	return 0;
}
