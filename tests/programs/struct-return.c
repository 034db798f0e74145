/* Structs returned in memory (the sret argument), as gnulib's
 * gl_tree_iterator does in m4: x86-64 used to keep the incoming address
 * across the function's migration point to hand it back in RAX, where no
 * call-site record described it (popcorn-llc refused the file).  Here the
 * callees also make calls of their own, are called through pointers and
 * recursively, and the stack is rewritten at each migration point. */
#include <stdio.h>
#include <string.h>

struct node {
	struct node *left, *right;
	int value;
};

struct iter {
	const char *name;
	struct node *root;
	struct node *p, *q;
	unsigned long i, j, count;
};

struct big {
	long v[12];
	char tag[24];
};

static struct node nodes[15];

static struct node *build(int lo, int hi)
{
	if (lo > hi)
		return NULL;
	int mid = (lo + hi) / 2;
	nodes[mid].value = mid * mid;
	nodes[mid].left = build(lo, mid - 1);
	nodes[mid].right = build(mid + 1, hi);
	return &nodes[mid];
}

/* The shape of gl_tree_iterator: no call but the migration point. */
static __attribute__((noinline)) struct iter leftmost(const char *name, struct node *root)
{
	struct iter result;
	struct node *node = root;
	result.name = name;
	result.root = root;
	if (node != NULL)
		while (node->left != NULL)
			node = node->left;
	result.p = node;
	result.q = NULL;
	result.i = result.j = 0;
	result.count = 0;
	return result;
}

static __attribute__((noinline)) int sum(struct node *n)
{
	return n ? n->value + sum(n->left) + sum(n->right) : 0;
}

/* Calls in the middle, and a result built around them. */
static __attribute__((noinline)) struct big make_big(int seed)
{
	struct big b;
	for (int k = 0; k < 12; k++)
		b.v[k] = (long)seed * (k + 1) + sum(&nodes[k]);
	snprintf(b.tag, sizeof b.tag, "big-%d-%ld", seed, b.v[11]);
	return b;
}

/* Recursion through a struct result. */
static __attribute__((noinline)) struct big fold(int depth)
{
	if (depth == 0)
		return make_big(1);
	struct big inner = fold(depth - 1);
	struct big b = make_big(depth);
	for (int k = 0; k < 12; k++)
		b.v[k] += inner.v[k] / 2;
	return b;
}

typedef struct big (*maker)(int);

int main(void)
{
	struct node *root = build(0, 14);
	struct iter it = leftmost("tree", root);
	printf("%s: first %d, count %lu, q %s\n", it.name, it.p->value, it.count,
	       it.q ? "set" : "null");
	struct iter empty = leftmost("empty", NULL);
	printf("%s: %s\n", empty.name, empty.p ? "set" : "null");
	printf("sum %d\n", sum(root));

	volatile maker m = make_big;
	for (int s = 0; s < 4; s++) {
		struct big b = m(s);
		printf("%s %ld %ld\n", b.tag, b.v[0], b.v[6]);
	}
	struct big f = fold(6);
	long total = 0;
	for (int k = 0; k < 12; k++)
		total += f.v[k];
	printf("fold %s %ld\n", f.tag, total);
	struct big copy;
	memcpy(&copy, &f, sizeof copy);
	printf("copy %s\n", copy.tag);
	return 0;
}
// POPCORN-MIGRATE-EVERY: 1 3
