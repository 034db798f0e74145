// MIGRATE-MIN: 1
/* Migration 500 frames deep: every frame keeps a local linked into a chain
 * through pointers to the locals of its callers, and a heap copy of it.
 * The thread moves to aarch64 at the bottom, walks the chain there, and
 * comes back halfway up. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

struct link {
	struct link *up;
	long value;
	long *heap;
};

static long walk(const struct link *l)
{
	long sum = 0;
	for (; l; l = l->up)
		sum += l->value * 3 + *l->heap;
	return sum;
}

static long descend(struct link *up, int depth)
{
	struct link here = {up, depth, malloc(sizeof(long))};
	*here.heap = depth * 7;
	long result;
	if (depth == 500) {
		popcorn_migrate(1);
		result = walk(&here);
	} else {
		result = descend(&here, depth + 1) + here.value;
	}
	if (depth == 250)
		popcorn_migrate(0);
	/* The local and its heap copy still agree after the moves. */
	if (*here.heap != depth * 7 || here.value != depth || here.up != up)
		printf("frame %d corrupted\n", depth);
	free(here.heap);
	return result;
}

int main(void)
{
	printf("sum %ld\n", descend(NULL, 1));
	return 0;
}
