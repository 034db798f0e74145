/* The demo: one thread computes an n-body simulation and moves while it
 * runs, x86-64 -> aarch64 -> x86-64.  Its locals, heap and globals are
 * where they were; only popcorn_current_node() and popcorn_isa() change.
 * The printed energies are the same as in a run that never moves. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

struct body { double x, y, z, vx, vy, vz, mass; };

static double energy(const struct body *b, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * b[i].mass * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
    for (int j = i + 1; j < n; j++) {
      double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
      e -= b[i].mass * b[j].mass / sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return e;
}

static void advance(struct body *b, int n, double dt, int steps) {
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        double dx = b[i].x - b[j].x, dy = b[i].y - b[j].y, dz = b[i].z - b[j].z;
        double d2 = dx * dx + dy * dy + dz * dz;
        double mag = dt / (d2 * sqrt(d2));
        b[i].vx -= dx * b[j].mass * mag; b[i].vy -= dy * b[j].mass * mag; b[i].vz -= dz * b[j].mass * mag;
        b[j].vx += dx * b[i].mass * mag; b[j].vy += dy * b[i].mass * mag; b[j].vz += dz * b[i].mass * mag;
      }
    for (int i = 0; i < n; i++) {
      b[i].x += dt * b[i].vx; b[i].y += dt * b[i].vy; b[i].z += dt * b[i].vz;
    }
  }
}

static void phase(const char *what, struct body *b, int n, int steps) {
  advance(b, n, 0.01, steps);
  printf("%-22s on node %d (%s): energy %.9f\n", what, popcorn_current_node(), popcorn_isa(),
         energy(b, n));
}

int main(int argc, char **argv) {
  int n = 5, steps = argc > 1 ? atoi(argv[1]) : 20000;
  struct body *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++)
    b[i] = (struct body){i * 1.5, i * 0.5 - 1, i * 0.25, 0.01 * i, -0.02 * i, 0.005, 1.0 + i * 0.1};
  phase("start", b, n, steps);
  if (popcorn_migrate(1) != 0)
    perror("popcorn_migrate(1)");
  phase("after moving to node 1", b, n, steps);
  if (popcorn_migrate(0) != 0)
    perror("popcorn_migrate(0)");
  phase("back at node 0", b, n, steps);
  free(b);
  return 0;
}
