/* Migration latency: round trips home -> NODE -> home, and the cost of a
 * page fault served by home while the thread is on NODE.  Prints medians
 * and 99th percentiles in microseconds.
 *
 *   migration [NODE [TRIPS [PAGES]]]     (defaults: 2 1000 4096) */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *what, double *v, int n)
{
	qsort(v, n, sizeof *v, by_value);
	printf("%-34s median %9.1f us   p99 %9.1f us   (%d samples)\n", what, v[n / 2],
	       v[n * 99 / 100], n);
}

/* On NODE, reads every 16th page of data downwards (no stream goes that
 * way), timing each read: a request of one page, the latency of a page
 * fault. */
static long strided_faults(int node, const char *data, int requests, double *fault)
{
	long sum = 0;
	popcorn_migrate(node);
	for (int i = 0; i < requests; i++) {
		double start = now_us();
		sum += data[(size_t)(requests - 1 - i) * 16 * 4096];
		fault[i] = now_us() - start;
	}
	popcorn_migrate(0);
	return sum;
}

int main(int argc, char **argv)
{
	int node = argc > 1 ? atoi(argv[1]) : 2;
	int trips = argc > 2 ? atoi(argv[2]) : 1000;
	int pages = argc > 3 ? atoi(argv[3]) : 4096;
	double *trip = malloc(trips * sizeof *trip), *fault = malloc(pages * sizeof *fault);
	/* The node starts on the first move; time it apart. */
	double t0 = now_us();
	if (popcorn_migrate(node) != 0) {
		perror("popcorn_migrate");
		return 1;
	}
	popcorn_migrate(0);
	printf("node %d (%s): first round trip, starting the node: %.1f us\n", node,
	       popcorn_node_isa(node), now_us() - t0);
	for (int i = 0; i < trips; i++) {
		double start = now_us();
		popcorn_migrate(node);
		popcorn_migrate(0);
		trip[i] = now_us() - start;
	}
	report("round trip home -> node -> home", trip, trips);

	/* Pages written at home, read on the node.  Read in order, a fault
	 * brings the page and up to 63 after it in one request (the window
	 * grows while the reads go on with a stream), so most reads find their
	 * page there; read every 16th page downwards, each read is a request
	 * of one page (strided_faults). */
	char *data = malloc((size_t)pages * 2 * 4096);
	memset(data, 1, (size_t)pages * 2 * 4096);
	popcorn_migrate(node);
	long sum = 0;
	double all = now_us();
	for (int i = 0; i < pages; i++) {
		double start = now_us();
		sum += data[(size_t)i * 4096];
		fault[i] = now_us() - start;
	}
	all = now_us() - all;
	popcorn_migrate(0);
	report("page read in order (per page)", fault, pages);
	printf("%-34s %9.1f MB/s\n", "page fetch throughput", pages * 4096 / all);
	int requests = pages / 16;
	char *strided = data + (size_t)pages * 4096;
	sum += strided_faults(node, strided, requests, fault);
	report("page fault (every 16th page, down)", fault, requests);
	/* The same pages again, written at home meanwhile: the node had them,
	 * so its kernel has memory for them already (on a VM, the first touch
	 * of memory may cost the hypervisor's work too). */
	for (int i = 0; i < requests; i++)
		strided[(size_t)i * 16 * 4096]++;
	sum += strided_faults(node, strided, requests, fault);
	report("page fault, page the node had", fault, requests);
	printf("(checksum %ld)\n", sum); /* the reads are not dead code */
	return 0;
}
