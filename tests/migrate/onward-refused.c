// MIGRATE-MIN: 2
// MIGRATE-ENV: POPCORN_NODES=0:x86_64:native,1:aarch64:tcp:127.0.0.1:9,2:x86_64:native
/* A move from node 2 to a node that cannot start (nothing listens on its
 * port): the thread goes through home, which cannot send it on, so
 * popcorn_migrate returns -1 with EHOSTUNREACH and the thread is home;
 * popcorn_run_on from node 2 to that node does not run its function and
 * brings the thread back to node 2.  It returned 0, the function run
 * at home. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>

static int problems;

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("problem: %s\n", what);
		problems++;
	}
}

static void note_node(void *arg)
{
	*(int *)arg = popcorn_current_node();
}

int main(void)
{
	if (popcorn_migrate(2) == 0) {
		errno = 0;
		int status = popcorn_migrate(1);
		expect(status == -1 && errno == EHOSTUNREACH, "the refused move did not fail");
		expect(popcorn_current_node() == 0, "the thread is not home after the refused move");
	}
	if (popcorn_migrate(2) == 0) {
		int ran_on = -1;
		errno = 0;
		int status = popcorn_run_on(1, note_node, &ran_on);
		expect(status == -1 && errno == EHOSTUNREACH, "run_on did not fail");
		expect(ran_on == -1, "run_on ran the function elsewhere");
		expect(popcorn_current_node() == 2, "run_on did not bring the thread back");
		popcorn_migrate(0);
	}
	printf("%d problems\n", problems);
	return problems;
}
