// MIGRATE-MIN: 7
/* popcorn_run_on: a function run on another node, the thread back where
 * it was after it, from home and from node 2; a function that moves on
 * its own; a node that does not exist (the function does not run).  The
 * sums are what every run prints, moved or not; where each part ran is
 * checked only in runs where the moves succeed, as a run that stays home
 * refuses them all. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

struct chase {
	long *next; /* a permutation: next[i] follows i */
	long length, sum;
	int ran_on;
};

static void chase(void *arg)
{
	struct chase *c = arg;
	long at = 0;
	c->sum = 0;
	for (long i = 0; i < c->length; i++) {
		c->sum += at * (i + 1);
		at = c->next[at];
	}
	c->ran_on = popcorn_current_node();
}

static void chase_then_move(void *arg)
{
	chase(arg);
	popcorn_migrate(2); /* run_on still brings the thread back */
}

static int problems;
static long at_home; /* the chase's sum, run where the program starts */

static void expect(int ok, const char *what)
{
	if (!ok) {
		printf("problem: %s\n", what);
		problems++;
	}
}

/* Runs FN on NODE from wherever the thread is; when the move succeeds,
 * checks that FN ran there, on the same data, and that the thread came
 * back. */
static void run_chase_on(int node, void (*fn)(void *), struct chase *c)
{
	int from = popcorn_current_node();
	c->ran_on = -1;
	c->sum = 0;
	if (popcorn_run_on(node, fn, c) == 0) {
		expect(c->ran_on == node, "the function ran elsewhere");
		expect(c->sum == at_home, "the function read other data");
		expect(popcorn_current_node() == from, "the thread did not come back");
	}
}

int main(void)
{
	struct chase c = {.length = 50000};
	c.next = malloc(c.length * sizeof *c.next);
	/* One cycle through every element: Sattolo's shuffle. */
	for (long i = 0; i < c.length; i++)
		c.next[i] = i;
	srand(7);
	for (long i = c.length - 1; i > 0; i--) {
		long j = rand() % i, t = c.next[i];
		c.next[i] = c.next[j];
		c.next[j] = t;
	}
	chase(&c);
	at_home = c.sum;
	printf("sum %ld\n", at_home);
	run_chase_on(1, chase, &c); /* home -> aarch64 -> home */
	run_chase_on(0, chase, &c); /* where it is: no move */
	expect(c.ran_on == 0 && c.sum == at_home, "a function for this node did not run here");
	run_chase_on(1, chase_then_move, &c);
	if (popcorn_migrate(2) == 0) {
		run_chase_on(1, chase, &c); /* node 2 -> aarch64 -> node 2 */
		run_chase_on(0, chase, &c); /* node 2 -> home -> node 2 */
		popcorn_migrate(0);
	}
	c.ran_on = -1;
	errno = 0;
	int status = popcorn_run_on(99, chase, &c);
	expect(status == -1 && errno == EINVAL && c.ran_on == -1, "node 99 was not refused");
	printf("%d problems\n", problems);
	return problems;
}
