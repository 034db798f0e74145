/* qsortcb: libc qsort with comparator callbacks, over an array of ints
 * and an array of 24-byte structs (two-key compare).
 * Size argument: number of ints; the struct array has half as many. */
#include <stdio.h>
#include <stdlib.h>

struct rec {
  int key;
  int sub;
  double weight;
  long id;
};

static unsigned long rng = 88172645463325252ul;
static unsigned long next(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int cmp_rec(const void *a, const void *b)
{
  const struct rec *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->sub != y->sub)
    return x->sub > y->sub ? -1 : 1; /* descending secondary key */
  return (x->id > y->id) - (x->id < y->id);
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 600000;
  long nr = n / 2 > 0 ? n / 2 : 1;
  int *v = malloc(n * sizeof *v);
  struct rec *r = malloc(nr * sizeof *r);
  if (!v || !r) {
    fprintf(stderr, "qsortcb: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; i++)
    v[i] = (int)(next() >> 33) - (1 << 30);
  for (long i = 0; i < nr; i++) {
    unsigned long x = next();
    r[i].key = (int)(x % 1000);
    r[i].sub = (int)((x >> 20) % 50);
    r[i].weight = (double)(x >> 40) / 1024.0;
    r[i].id = i;
  }
  qsort(v, n, sizeof *v, cmp_int);
  qsort(r, nr, sizeof *r, cmp_rec);

  unsigned long h = 1469598103934665603ul;
  int sorted = 1;
  for (long i = 0; i < n; i++) {
    if (i && v[i - 1] > v[i])
      sorted = 0;
    h = (h ^ (unsigned)v[i]) * 1099511628211ul;
  }
  for (long i = 0; i < nr; i++) {
    if (i && cmp_rec(&r[i - 1], &r[i]) > 0)
      sorted = 0;
    h = (h ^ (unsigned long)r[i].id) * 1099511628211ul;
  }
  printf("qsortcb n=%ld sorted=%d min=%d max=%d hash=%016lx\n", n, sorted, v[0],
         v[n - 1], h);
  free(v);
  free(r);
  return 0;
}
