/* spectral: spectral norm of the infinite matrix A(i,j) = 1/((i+j)(i+j+1)/2+i+1),
 * truncated to N x N, by power iteration on A^T A.
 * Size argument: N. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double a(long i, long j)
{
  return 1.0 / (double)((i + j) * (i + j + 1) / 2 + i + 1);
}

static void mul_av(const double *v, double *out, long n)
{
  for (long i = 0; i < n; i++) {
    double s = 0.0;
    for (long j = 0; j < n; j++)
      s += a(i, j) * v[j];
    out[i] = s;
  }
}

static void mul_atv(const double *v, double *out, long n)
{
  for (long i = 0; i < n; i++) {
    double s = 0.0;
    for (long j = 0; j < n; j++)
      s += a(j, i) * v[j];
    out[i] = s;
  }
}

static void mul_atav(const double *v, double *out, double *tmp, long n)
{
  mul_av(v, tmp, n);
  mul_atv(tmp, out, n);
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 2500;
  double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v),
         *tmp = malloc(n * sizeof *tmp);
  if (!u || !v || !tmp) {
    fprintf(stderr, "spectral: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; i++)
    u[i] = 1.0;
  for (int k = 0; k < 10; k++) {
    mul_atav(u, v, tmp, n);
    mul_atav(v, u, tmp, n);
  }
  double vbv = 0.0, vv = 0.0;
  for (long i = 0; i < n; i++) {
    vbv += u[i] * v[i];
    vv += v[i] * v[i];
  }
  printf("spectral n=%ld norm=%.9f\n", n, sqrt(vbv / vv));
  free(u);
  free(v);
  free(tmp);
  return 0;
}
