/* nbody: gravitational simulation of a small planetary system with
 * symplectic Euler steps; prints the energy before and after.
 * Size argument: number of time steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 7

struct body {
  double x, y, z, vx, vy, vz, m;
};

static struct body sys[NB];

static void init(void)
{
  /* A heavy central mass and six lighter bodies on roughly circular,
   * slightly inclined orbits.  Units: G = 1. */
  sys[0] = (struct body){0, 0, 0, 0, 0, 0, 1000.0};
  for (int i = 1; i < NB; i++) {
    double r = 3.0 + 2.5 * i;
    double ang = 0.9 * i;
    double v = sqrt(1000.0 / r);
    sys[i].x = r * cos(ang);
    sys[i].y = r * sin(ang);
    sys[i].z = 0.05 * i;
    sys[i].vx = -v * sin(ang);
    sys[i].vy = v * cos(ang);
    sys[i].vz = 0.01 * (i & 1 ? 1 : -1);
    sys[i].m = 0.5 + 0.3 * i;
  }
  /* Zero total momentum. */
  double px = 0, py = 0, pz = 0;
  for (int i = 1; i < NB; i++) {
    px += sys[i].vx * sys[i].m;
    py += sys[i].vy * sys[i].m;
    pz += sys[i].vz * sys[i].m;
  }
  sys[0].vx = -px / sys[0].m;
  sys[0].vy = -py / sys[0].m;
  sys[0].vz = -pz / sys[0].m;
}

static double energy(void)
{
  double e = 0.0;
  for (int i = 0; i < NB; i++) {
    struct body *b = &sys[i];
    e += 0.5 * b->m * (b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    for (int j = i + 1; j < NB; j++) {
      double dx = b->x - sys[j].x, dy = b->y - sys[j].y, dz = b->z - sys[j].z;
      e -= b->m * sys[j].m / sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  return e;
}

static void advance(double dt)
{
  for (int i = 0; i < NB; i++) {
    struct body *b = &sys[i];
    for (int j = i + 1; j < NB; j++) {
      struct body *c = &sys[j];
      double dx = b->x - c->x, dy = b->y - c->y, dz = b->z - c->z;
      double d2 = dx * dx + dy * dy + dz * dz;
      double mag = dt / (d2 * sqrt(d2));
      b->vx -= dx * c->m * mag;
      b->vy -= dy * c->m * mag;
      b->vz -= dz * c->m * mag;
      c->vx += dx * b->m * mag;
      c->vy += dy * b->m * mag;
      c->vz += dz * b->m * mag;
    }
  }
  for (int i = 0; i < NB; i++) {
    sys[i].x += dt * sys[i].vx;
    sys[i].y += dt * sys[i].vy;
    sys[i].z += dt * sys[i].vz;
  }
}

int main(int argc, char **argv)
{
  long steps = argc > 1 ? atol(argv[1]) : 4000000;
  init();
  printf("nbody e0=%.9f\n", energy());
  for (long s = 0; s < steps; s++)
    advance(0.001);
  printf("nbody steps=%ld e1=%.9f x1=%.6f\n", steps, energy(), sys[1].x);
  return 0;
}
