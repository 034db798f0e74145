/* matmul: dense double-precision matrix multiply C = A * B (i-k-j order),
 * repeated with C fed back into A.  Size argument: matrix dimension N. */
#include <stdio.h>
#include <stdlib.h>

static double *alloc_matrix(int n)
{
  double *m = malloc((size_t)n * n * sizeof *m);
  if (!m) {
    fprintf(stderr, "matmul: out of memory\n");
    exit(1);
  }
  return m;
}

static void fill(double *m, int n, unsigned seed)
{
  unsigned s = seed;
  for (int i = 0; i < n * n; i++) {
    s = s * 1103515245u + 12345u;
    m[i] = (double)((s >> 8) & 0xffff) / 65536.0 - 0.5;
  }
}

static void multiply(double *restrict c, const double *restrict a,
                     const double *restrict b, int n)
{
  for (int i = 0; i < n; i++) {
    double *ci = c + (size_t)i * n;
    for (int j = 0; j < n; j++)
      ci[j] = 0.0;
    for (int k = 0; k < n; k++) {
      double aik = a[(size_t)i * n + k];
      const double *bk = b + (size_t)k * n;
      for (int j = 0; j < n; j++)
        ci[j] += aik * bk[j];
    }
  }
}

static void normalize(double *m, int n)
{
  double maxabs = 0.0;
  for (int i = 0; i < n * n; i++) {
    double v = m[i] < 0 ? -m[i] : m[i];
    if (v > maxabs)
      maxabs = v;
  }
  if (maxabs > 0)
    for (int i = 0; i < n * n; i++)
      m[i] /= maxabs;
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 900;
  int reps = 3;
  double *a = alloc_matrix(n), *b = alloc_matrix(n), *c = alloc_matrix(n);
  fill(a, n, 1);
  fill(b, n, 2);
  for (int r = 0; r < reps; r++) {
    multiply(c, a, b, n);
    normalize(c, n);
    double *t = a;
    a = c;
    c = t;
  }
  double sum = 0.0, diag = 0.0;
  for (int i = 0; i < n; i++) {
    diag += a[(size_t)i * n + i];
    for (int j = 0; j < n; j++)
      sum += a[(size_t)i * n + j] * (double)((i + j) % 7 + 1);
  }
  printf("matmul n=%d sum=%.6e diag=%.6e\n", n, sum, diag);
  free(a);
  free(b);
  free(c);
  return 0;
}
