// MIGRATE-MIN: 6
/* Pages a node keeps between trips: what home writes while the thread is
 * home is seen on the node's next trip, for a page the node only read, one
 * it wrote, and after the node held more pages than home checks at a
 * departure (it then forgets them all: 80 MiB here). */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Page = 4096, BigPages = 20480 };

static long sum(const unsigned char *p, size_t n, size_t stride)
{
	long s = 0;
	for (size_t i = 0; i < n; i += stride)
		s += p[i];
	return s;
}

int main(void)
{
	unsigned char *small = malloc(8 * Page);
	memset(small, 1, 8 * Page);
	for (int node = 1; node <= 2; node++) {
		popcorn_migrate(node);
		long read = sum(small, 8 * Page, 64);
		small[5 * Page] = 9; /* written there */
		popcorn_migrate(0);
		small[2 * Page] = 3; /* a page the node only read */
		small[5 * Page + 1] = 4; /* one it wrote */
		popcorn_migrate(node);
		printf("node %d: %ld, then %ld\n", node, read, sum(small, 8 * Page, 1));
		popcorn_migrate(0);
	}

	unsigned char *big = malloc((size_t)BigPages * Page);
	memset(big, 2, (size_t)BigPages * Page);
	popcorn_migrate(2);
	long first = sum(big, (size_t)BigPages * Page, Page);
	popcorn_migrate(0);
	big[7 * Page] = 5;
	big[(size_t)(BigPages - 1) * Page] = 6;
	small[7 * Page] = 8;
	popcorn_migrate(2);
	long second = sum(big, (size_t)BigPages * Page, Page);
	long small_sum = sum(small, 8 * Page, 1);
	popcorn_migrate(0);
	printf("80 MiB: %ld, then %ld; small: %ld\n", first, second, small_sum);
	return 0;
}
