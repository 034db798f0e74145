/* mandel: escape-time Mandelbrot set on a W x W grid, max 200 iterations;
 * prints the total iteration count and a hash of the image.
 * Size argument: W. */
#include <stdio.h>
#include <stdlib.h>

static int escape(double cr, double ci, int maxit)
{
  double zr = 0.0, zi = 0.0;
  int it = 0;
  while (it < maxit) {
    double zr2 = zr * zr, zi2 = zi * zi;
    if (zr2 + zi2 > 4.0)
      break;
    zi = 2.0 * zr * zi + ci;
    zr = zr2 - zi2 + cr;
    it++;
  }
  return it;
}

int main(int argc, char **argv)
{
  int w = argc > 1 ? atoi(argv[1]) : 1800;
  int maxit = 200;
  unsigned long total = 0, h = 14695981039346656037ul;
  for (int y = 0; y < w; y++) {
    double ci = -1.25 + 2.5 * y / w;
    for (int x = 0; x < w; x++) {
      double cr = -2.1 + 2.8 * x / w;
      int it = escape(cr, ci, maxit);
      total += (unsigned long)it;
      h = (h ^ (unsigned long)it) * 1099511628211ul;
    }
  }
  printf("mandel w=%d iters=%lu hash=%016lx\n", w, total, h);
  return 0;
}
