/* recurse: call-heavy recursion: naive Fibonacci, Ackermann(2|3, n) and
 * Takeuchi.  Size argument: n for fib(n); the other two scale with it. */
#include <stdio.h>
#include <stdlib.h>

static long fib(int n)
{
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long ack(long m, long n)
{
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static int tak(int x, int y, int z)
{
  if (y >= x)
    return z;
  return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y));
}

/* Keep the compiler from turning the calls into loops or constants. */
static volatile int sink_int;

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 40;
  sink_int = n;
  int m = sink_int;
  long f = fib(m);
  long a = ack(3, m / 4 + 1);
  int t = tak(m / 2 + 4, m / 3 + 2, m / 5);
  printf("recurse n=%d fib=%ld ack=%ld tak=%d\n", n, f, a, t);
  return 0;
}
