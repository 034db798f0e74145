// MIGRATE-MIN: 6
/* A node keeps the pages it read between trips, each run of them a mapping
 * of its own in the kernel.  A thread that reads pages far apart, a few
 * thousand per trip all over a large table, would take the node past the
 * kernel's limit of mappings (vm.max_map_count, 65,530 by default): it
 * could not map one more page.  Here every other page of a quarter of 256
 * MiB per trip, in scattered order: 16,384 mappings a trip; and last, in
 * one trip, every other page of all of it: 65,536 mappings, past the limit
 * (the node gives up pages it has not written, to fetch them again). */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

enum { Page = 4096, Pages = 65536, Quarter = Pages / 4, Trips = 5 };

int main(void)
{
	unsigned char *t = malloc((size_t)Pages * Page);
	if (!t)
		return 1;
	for (size_t i = 0; i < Pages; i += 2)
		t[i * Page] = (unsigned char)(i / 2);
	for (int trip = 0; trip < Trips; trip++) {
		size_t base = (size_t)(trip % 4) * Quarter;
		popcorn_migrate(2);
		long sum = 0;
		for (size_t k = 0; k < Quarter / 2; k++)
			sum += t[(base + 2 * (k * 4099 % (Quarter / 2))) * Page];
		popcorn_migrate(0);
		printf("trip %d: %ld\n", trip, sum);
	}
	popcorn_migrate(2);
	long sum = 0;
	for (int round = 0; round < 2; round++)
		for (size_t k = 0; k < Pages / 2; k++)
			sum += t[2 * (k * 4099 % (Pages / 2)) * Page];
	popcorn_migrate(0);
	printf("all of it, twice: %ld\n", sum);
	return 0;
}
