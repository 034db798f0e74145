/* rescan: sums a 96 MiB table of longs again and again, changing one
 * entry per pass: a large data set the program reads far more than it
 * writes.  Moving, a node keeps the table between trips when home can
 * tell which of its pages changed.  Size argument: passes. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  long passes = argc > 1 ? atol(argv[1]) : 100;
  long n = 96l << 17; /* 96 MiB of longs */
  long *t = malloc((size_t)n * sizeof *t);
  if (!t) {
    fprintf(stderr, "rescan: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; i++)
    t[i] = i;
  long sum = 0;
  for (long p = 0; p < passes; p++) {
    for (long i = 0; i < n; i++)
      sum += t[i] ^ p;
    t[(p * 7919) % n] += p;
  }
  printf("rescan passes=%ld sum=%ld\n", passes, sum);
  free(t);
  return 0;
}
