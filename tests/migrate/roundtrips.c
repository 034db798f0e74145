// MIGRATE-MIN: 200
// MIGRATE-UNDER: setarch -R
/* 100 round trips to aarch64 (node 1) and 100 to another x86-64 process
 * (node 2), with work on every node between the moves: a checksum over a
 * heap array that each node updates in turn. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

static int wrong;

static void move(int node)
{
	if (popcorn_migrate(node) == 0 && popcorn_current_node() != node) {
		printf("on node %d, expected %d\n", popcorn_current_node(), node);
		wrong++;
	}
}

static unsigned long mix(unsigned long *a, int n, unsigned long salt)
{
	unsigned long sum = 0;
	for (int i = 0; i < n; i++) {
		a[i] = a[i] * 6364136223846793005ul + salt + i;
		sum += a[i] >> 17;
	}
	return sum;
}

int main(void)
{
	int n = 2048;
	unsigned long *a = calloc(n, sizeof *a), sum = 0;
	for (int trip = 0; trip < 100; trip++) {
		move(1);
		sum += mix(a, n, trip);
		move(0);
		sum += mix(a, n, trip + 1000);
		move(2);
		sum += mix(a, n, trip + 2000);
		move(0);
	}
	printf("checksum %lu, %d wrong nodes\n", sum, wrong);
	free(a);
	return wrong != 0;
}
