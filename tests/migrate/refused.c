// MIGRATE-MIN: 1
/* A move to a node that does not exist is refused: -1 and EINVAL, and the
 * thread goes on where it is.  A valid move afterwards still works. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	int before = popcorn_current_node();
	int r = popcorn_migrate(7);
	printf("migrate(7): %d, %s, still on the same node: %s\n", r, strerror(errno),
	       popcorn_current_node() == before ? "yes" : "no");
	r = popcorn_migrate(-1);
	printf("migrate(-1): %d, %s\n", r, strerror(errno));
	popcorn_migrate(1);
	popcorn_migrate(0);
	printf("done\n");
	return 0;
}
