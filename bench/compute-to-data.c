/* Compute to the data, or data to the compute: a thread on NODE chases a
 * linked list whose pages home holds, either where it is, each page it
 * reaches fetched from home, or by moving home for the chase and back
 * (popcorn_run_on).  One list element per page, the pages drawn at random
 * from a 16 MiB pool, so that every hop reaches a page the thread has not
 * read yet, as pointer chasing through a large heap does.  Prints, for
 * each list length, the median time of each way in microseconds and which
 * is faster, then the length from which moving wins.
 *
 *   compute-to-data [NODE [TRIALS]]     (defaults: 2 15) */
#include <popcorn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { PoolPages = 4096, PageBytes = 4096, MaxLength = 1024 };

struct element {
	struct element *next;
	long value;
};

struct chase {
	struct element *first;
	long length, sum;
};

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void chase(void *arg)
{
	struct chase *c = arg;
	long sum = 0;
	struct element *e = c->first;
	for (long i = 0; i < c->length; i++, e = e->next)
		sum += e->value;
	c->sum = sum;
}

/* At home: a list of LENGTH elements on pages drawn from POOL, each at a
 * random 64-byte line of its page, holding fresh values (so that a node's
 * copies of the pages from an earlier trial are out of date). */
static struct element *build(char *pool, long length, long salt)
{
	static int page[PoolPages];
	for (int i = 0; i < PoolPages; i++)
		page[i] = i;
	for (long i = 0; i < length; i++) { /* the first LENGTH of a shuffle */
		long j = i + rand() % (PoolPages - i);
		int t = page[i];
		page[i] = page[j];
		page[j] = t;
	}
	struct element *first = 0, **link = &first;
	for (long i = 0; i < length; i++) {
		struct element *e = (struct element *)(pool + (size_t)page[i] * PageBytes +
						       (size_t)(rand() % (PageBytes / 64)) * 64);
		e->value = salt * 31 + i;
		*link = e;
		link = &e->next;
	}
	*link = first;
	return first;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof *v, by_value);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	int node = argc > 1 ? atoi(argv[1]) : 2;
	int trials = argc > 2 ? atoi(argv[2]) : 15;
	char *pool = aligned_alloc(PageBytes, (size_t)PoolPages * PageBytes);
	double *fetch = malloc(trials * sizeof *fetch), *move = malloc(trials * sizeof *move);
	if (!pool || !fetch || !move || trials < 1) {
		fprintf(stderr, "usage: compute-to-data [NODE [TRIALS]]\n");
		return 2;
	}
	srand(1);
	/* The node starts on the first move: not timed. */
	if (popcorn_migrate(node) != 0 || popcorn_migrate(0) != 0) {
		perror("popcorn_migrate");
		return 1;
	}
	printf("list on node 0, thread on node %d (%s); medians of %d trials, us\n", node,
	       popcorn_node_isa(node), trials);
	printf("%8s %12s %12s   %s\n", "pages", "fetch", "move", "faster");
	long crossover = -1, checks = 0;
	for (long length = 1; length <= MaxLength; length *= 2) {
		for (int t = 0; t < trials; t++) {
			struct chase c = {build(pool, length, t), length, 0};
			chase(&c);
			long expected = c.sum;
			popcorn_migrate(node);
			double start = now_us();
			chase(&c); /* each page fetched from home */
			fetch[t] = now_us() - start;
			checks += c.sum != expected;
			popcorn_migrate(0);
			c.first = build(pool, length, t + trials); /* new values, same way */
			chase(&c);
			expected = c.sum;
			popcorn_migrate(node);
			start = now_us();
			popcorn_run_on(0, chase, &c); /* home for the chase, and back */
			move[t] = now_us() - start;
			checks += c.sum != expected || popcorn_current_node() != node;
			popcorn_migrate(0);
		}
		double f = median(fetch, trials), m = median(move, trials);
		printf("%8ld %12.1f %12.1f   %s\n", length, f, m, m < f ? "move" : "fetch");
		if (m < f && crossover < 0)
			crossover = length;
		if (m >= f)
			crossover = -1; /* from the last length where fetching still won */
	}
	if (crossover > 0)
		printf("moving the thread wins from %ld pages on\n", crossover);
	else
		printf("fetching wins at every length measured\n");
	if (checks)
		printf("%ld chases read wrong data or did not come back\n", checks);
	return checks != 0;
}
