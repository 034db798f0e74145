// MIGRATE-FETCHES-BELOW: 1000000
/* Moves to node 1 and home, then ends with a report whose page count is
 * not a number (_exit: the runtime's own report is not printed), which the
 * harness must not take for "0 pages fetched". */
#include <popcorn.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	popcorn_migrate(1);
	popcorn_migrate(0);
	printf("moved\n");
	fflush(stdout);
	fprintf(stderr, "popcorn: migrations: 2 away from home (2 to node 1), many pages fetched\n");
	_exit(0);
}
