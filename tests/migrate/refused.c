// MIGRATE-MIN: 2
/* A move to a node that does not exist is refused: -1 and EINVAL, and the
 * thread goes on where it is.  A move while another thread runs is not
 * (that thread waits at home meanwhile): its blocked read goes on when it
 * is back.  A valid move afterwards still works. */
#include <errno.h>
#include <popcorn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int go[2];

static void *waiter(void *arg)
{
	char c;
	return read(go[0], &c, 1) == 1 ? arg : 0;
}

int main(void)
{
	int before = popcorn_current_node();
	int r = popcorn_migrate(7);
	printf("migrate(7): %d, %s, still on the same node: %s\n", r, strerror(errno),
	       popcorn_current_node() == before ? "yes" : "no");
	r = popcorn_migrate(-1);
	printf("migrate(-1): %d, %s\n", r, strerror(errno));
	pthread_t thread;
	if (pipe(go) || pthread_create(&thread, 0, waiter, &thread))
		return 1;
	r = popcorn_migrate(2);
	int moved = popcorn_num_nodes() == 1 || (r == 0 && popcorn_current_node() == 2);
	popcorn_migrate(0);
	printf("with another thread: moved %s, back on the first node: %s\n", moved ? "yes" : "NO",
	       popcorn_current_node() == before ? "yes" : "no");
	void *result;
	if (write(go[1], "x", 1) != 1 || pthread_join(thread, &result) || result != &thread)
		return 1;
	popcorn_migrate(1);
	popcorn_migrate(0);
	printf("done\n");
	return 0;
}
