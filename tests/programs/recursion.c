// POPCORN-RUN-TIMEOUT: 180
// POPCORN-MIGRATE-RANDOM: 0.001
// POPCORN-SELFTEST-EVERY: 13 101
/* Deep and mutual recursion.  Thousands of frames deep, not more: the
 * unwinding self-check walks the whole stack at every migration point, a cost
 * that grows with the square of the depth (and qemu runs the aarch64 side).
 * Millions of points: moving at 0.3 of them would take hours, at 0.001 it
 * makes about 2,400 moves, some thousands of frames deep. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long ackermann(unsigned long m, unsigned long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ackermann(m - 1, 1);
	return ackermann(m - 1, ackermann(m, n - 1));
}

static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(unsigned n);
static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}
static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

/* Deep recursion with a frame that holds an array and a double. */
static double deep(int depth, double acc)
{
	volatile signed char pad[64];
	pad[depth % 64] = (signed char)depth;
	if (depth == 0)
		return acc;
	double r = deep(depth - 1, acc * 1.0000001 + depth);
	return r + pad[depth % 64] * 0.5;
}

/* Recursive descent over a balanced binary tree. */
struct node {
	struct node *left, *right;
	int value;
};

static struct node *build(int lo, int hi)
{
	if (lo > hi)
		return NULL;
	int mid = lo + (hi - lo) / 2;
	struct node *n = malloc(sizeof *n);
	n->value = mid;
	n->left = build(lo, mid - 1);
	n->right = build(mid + 1, hi);
	return n;
}

static long sum_tree(const struct node *n, int depth, int *maxdepth)
{
	if (!n)
		return 0;
	if (depth > *maxdepth)
		*maxdepth = depth;
	return n->value + sum_tree(n->left, depth + 1, maxdepth) + sum_tree(n->right, depth + 1, maxdepth);
}

static void free_tree(struct node *n)
{
	if (!n)
		return;
	free_tree(n->left);
	free_tree(n->right);
	free(n);
}

static void hanoi(int n, int from, int to, int via, unsigned long *moves, unsigned long *hash)
{
	if (n == 0)
		return;
	hanoi(n - 1, from, via, to, moves, hash);
	++*moves;
	*hash = *hash * 31 + (unsigned long)(from * 3 + to);
	hanoi(n - 1, via, to, from, moves, hash);
}

int main(void)
{
	for (unsigned long m = 0; m <= 3; m++)
		for (unsigned long n = 0; n <= 4; n++)
			printf("A(%lu,%lu)=%lu%s", m, n, ackermann(m, n), n == 4 ? "\n" : " ");
	printf("A(2,200)=%lu A(3,6)=%lu\n", ackermann(2, 200), ackermann(3, 6));
	for (int i = 0; i <= 30; i += 5)
		printf("fib(%d)=%ld\n", i, fib(i));
	printf("even(10001)=%d odd(10001)=%d even(12000)=%d\n", is_even(10001), is_odd(10001), is_even(12000));
	printf("deep(8000)=%.6e\n", deep(8000, 1.0));
	int maxdepth = 0;
	struct node *root = build(1, 100000);
	printf("tree sum %ld depth %d\n", sum_tree(root, 1, &maxdepth), maxdepth);
	free_tree(root);
	unsigned long moves = 0, hash = 0;
	hanoi(18, 1, 3, 2, &moves, &hash);
	printf("hanoi(18) moves %lu hash %lu\n", moves, hash);
	return 0;
}
