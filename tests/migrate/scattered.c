// MIGRATE-MIN: 6
/* A node keeps the pages it read between trips, each run of them a mapping
 * of its own in the kernel.  A thread that reads pages far apart, a few
 * thousand per trip all over a large table, would take the node past the
 * kernel's limit of mappings (vm.max_map_count, 65,530 by default): it
 * could not map one more page.  Here every 8th page of a quarter of 1 GiB
 * per trip, in scattered order: 16,384 mappings a trip; and last, in one
 * trip, every 8th page of all of it: 65,536 mappings, past the limit (the
 * node gives up pages it has not written, to fetch them again).  Every 8th
 * page: of every other page, the node would bring the pages between with
 * the ones read, a block at a time (blocks.c), in a few mappings. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

enum { Page = 4096, Pages = 262144, Stride = 8, Quarter = Pages / 4, Trips = 5 };

int main(void)
{
	unsigned char *t = malloc((size_t)Pages * Page);
	if (!t)
		return 1;
	for (size_t i = 0; i < Pages; i += Stride)
		t[i * Page] = (unsigned char)(i / Stride);
	for (int trip = 0; trip < Trips; trip++) {
		size_t base = (size_t)(trip % 4) * Quarter;
		popcorn_migrate(2);
		long sum = 0;
		for (size_t k = 0; k < Quarter / Stride; k++)
			sum += t[(base + Stride * (k * 4099 % (Quarter / Stride))) * Page];
		popcorn_migrate(0);
		printf("trip %d: %ld\n", trip, sum);
	}
	popcorn_migrate(2);
	long sum = 0;
	for (int round = 0; round < 2; round++)
		for (size_t k = 0; k < Pages / Stride; k++)
			sum += t[Stride * (k * 4099 % (Pages / Stride)) * Page];
	popcorn_migrate(0);
	printf("all of it, twice: %ld\n", sum);
	return 0;
}
