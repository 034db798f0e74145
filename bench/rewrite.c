/* Stack rewrite latency: the thread moves from the bottom of a recursion
 * DEPTH calls deep, each frame holding eight values (four integers, four
 * doubles) live across its call, to NODE and back, TRIPS times.  Run it
 * under POPCORN_TRACE: the trace times each move's rewrite apart from its
 * transfer and resume (bench/rewrite.sh reads it).  The output is a
 * checksum of every frame's values, the same wherever the thread went.
 *
 *   rewrite [DEPTH [TRIPS [NODE]]]     (defaults: 10 100 1) */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

static int trips, node;

static double descend(int depth, long seed)
{
	long a = seed * 3 + 1, b = seed ^ 0x5a5a, c = seed * seed, d = seed - 7;
	double e = seed * 0.5, f = seed / 3.0, g = e * f, h = f - e;
	double below = 0;
	if (depth > 1) {
		below = descend(depth - 1, seed + 1);
	} else {
		for (int i = 0; i < trips; i++)
			if (popcorn_migrate(node) != 0 || popcorn_migrate(0) != 0) {
				perror("popcorn_migrate");
				exit(1);
			}
	}
	/* Every value is read after the call, so each crosses it. */
	return below + (double)(a + b + c + d) + e + f + g + h;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 10;
	trips = argc > 2 ? atoi(argv[2]) : 100;
	node = argc > 3 ? atoi(argv[3]) : 1;
	if (depth < 1 || trips < 1) {
		fprintf(stderr, "usage: rewrite [DEPTH [TRIPS [NODE]]] (DEPTH, TRIPS >= 1)\n");
		return 2;
	}
	printf("depth %d, %d round trips to node %d: checksum %.1f\n", depth, trips, node,
	       descend(depth, 1));
	return 0;
}
