/* sieve: sieve of Eratosthenes over odd numbers, repeated; counts primes,
 * twin primes and sums the primes.  Size argument: limit in thousands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long sieve(unsigned char *comp, long limit, long *twins, unsigned long *sum)
{
  /* comp[i] describes 2*i+1. */
  long half = (limit - 1) / 2 + 1;
  memset(comp, 0, half);
  comp[0] = 1; /* 1 is not prime */
  for (long i = 1; (2 * i + 1) * (2 * i + 1) <= limit; i++)
    if (!comp[i])
      for (long j = (2 * i + 1) * (2 * i + 1) / 2; j < half; j += 2 * i + 1)
        comp[j] = 1;
  long count = limit >= 2;
  unsigned long s = limit >= 2 ? 2 : 0;
  long tw = 0;
  for (long i = 1; i < half; i++) {
    if (!comp[i]) {
      count++;
      s += 2 * i + 1;
      if (i + 1 < half && !comp[i + 1])
        tw++;
    }
  }
  *twins = tw;
  *sum = s;
  return count;
}

int main(int argc, char **argv)
{
  long k = argc > 1 ? atol(argv[1]) : 50000;
  long limit = k * 1000;
  unsigned char *comp = malloc(limit / 2 + 1);
  if (!comp) {
    fprintf(stderr, "sieve: out of memory\n");
    return 1;
  }
  long count = 0, twins = 0;
  unsigned long sum = 0;
  for (int r = 0; r < 4; r++)
    count = sieve(comp, limit - r * 1000, &twins, &sum);
  printf("sieve limit=%ld primes=%ld twins=%ld sum=%lu\n", limit - 3000, count,
         twins, sum);
  free(comp);
  return 0;
}
