// MIGRATE-MIN: 1
// EXIT: 3
/* exit() on the remote node ends the whole program with its status, after
 * stdout is flushed in program order. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

static void goodbye(void) { printf("exit handler ran\n"); }

int main(void)
{
	atexit(goodbye);
	printf("at home\n");
	popcorn_migrate(1);
	printf("away, exiting with 3\n");
	exit(3);
}
