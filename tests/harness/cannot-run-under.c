// MIGRATE-UNDER: /nonexistent/launcher
/* Moves to node 1 and home; its run under a launcher that does not exist
 * here must make the test skipped, not passed. */
#include <popcorn.h>
#include <stdio.h>

int main(void)
{
	popcorn_migrate(1);
	popcorn_migrate(0);
	printf("moved\n");
	return 0;
}
