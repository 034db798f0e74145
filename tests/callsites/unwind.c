/* Recursion, malloc, libc calls and an indirect call: the stack walks of
 * POPCORN_CHECK_UNWIND must reach the thread base from every migration point. */
#include <stdio.h>
#include <stdlib.h>
struct node { struct node *l, *r; int v; };
static struct node *build(int d) { if (!d) return NULL; struct node *n = malloc(sizeof *n); n->v = d; n->l = build(d - 1); n->r = build(d - 1); return n; }
static long sum(struct node *n) { return n ? n->v + sum(n->l) + sum(n->r) : 0; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static double harm(int n, double acc) { char buf[32]; snprintf(buf, sizeof buf, "%d", n); return n ? harm(n - 1, acc + 1.0 / atoi(buf)) : acc; }
int (*fp)(int) = fib;
int main(void) { printf("%ld %d %.6f\n", sum(build(10)), fp(18), harm(50, 0)); return 0; }
