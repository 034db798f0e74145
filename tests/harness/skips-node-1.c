// POPCORN-MIGRATE-EVERY: 1
// POPCORN-MIGRATE-NODES: 2,0,1,0, the cycle's third node is never reached
// POPCORN-MIGRATE: no, only the every=1 run
/* Few migration points (main's, the only function that has any): every=1 moves the
 * thread to node 2 and home, never to node 1, which the harness must not
 * take for a pass. */
#include <stdio.h>

int main(void)
{
	printf("two migration points\n");
	return 0;
}
