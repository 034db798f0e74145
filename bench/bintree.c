/* bintree: allocate, walk and free many complete binary trees with
 * malloc/free and recursion.  Size argument: maximum tree depth. */
#include <stdio.h>
#include <stdlib.h>

struct node {
  struct node *left, *right;
  long value;
};

static struct node *build(int depth, long value)
{
  struct node *n = malloc(sizeof *n);
  if (!n) {
    fprintf(stderr, "bintree: out of memory\n");
    exit(1);
  }
  n->value = value;
  if (depth > 0) {
    n->left = build(depth - 1, 2 * value - 1);
    n->right = build(depth - 1, 2 * value);
  } else {
    n->left = n->right = NULL;
  }
  return n;
}

static long check(const struct node *n)
{
  if (!n->left)
    return n->value & 0xff;
  return 1 + (n->value & 7) + check(n->left) - check(n->right);
}

static long count(const struct node *n)
{
  return n ? 1 + count(n->left) + count(n->right) : 0;
}

static void release(struct node *n)
{
  if (!n)
    return;
  release(n->left);
  release(n->right);
  free(n);
}

int main(int argc, char **argv)
{
  int maxdepth = argc > 1 ? atoi(argv[1]) : 14;
  int mindepth = 4;
  if (maxdepth < mindepth + 2)
    maxdepth = mindepth + 2;

  struct node *longlived = build(maxdepth, 0);
  unsigned long total = 0;
  for (int d = mindepth; d <= maxdepth; d += 2) {
    long iters = 1L << (maxdepth - d + mindepth);
    long sum = 0;
    for (long i = 1; i <= iters; i++) {
      struct node *t = build(d, i);
      sum += check(t);
      release(t);
    }
    printf("bintree depth=%d trees=%ld check=%ld\n", d, iters, sum);
    total = total * 31 + (unsigned long)sum;
  }
  printf("bintree longlived nodes=%ld check=%ld total=%lu\n", count(longlived),
         check(longlived), total);
  release(longlived);
  return 0;
}
