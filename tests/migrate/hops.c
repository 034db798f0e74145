// MIGRATE-MIN: 300
/* A thread that goes from node to node, never staying home, 300 times:
 * each trip passes through home without nesting a frame there. */
#include <popcorn.h>
#include <stdio.h>

int main(void)
{
	int moved = 0;
	for (int i = 0; i < 300; i++)
		moved += popcorn_migrate(i % 2 ? 1 : 2) == 0;
	popcorn_migrate(0);
	printf("%s\n", moved == 300 || popcorn_num_nodes() == 1 ? "every hop taken" : "hops refused");
	return 0;
}
