// MIGRATE-MIN: 3
// MIGRATE-REQUESTS-BELOW: 12000
/* A thread that jumps about a table reads most of each block of it once
 * it read a few pages there: a node then brings the block's missing pages
 * with the one faulted on, in one request, rather than one request per
 * page (8,190 requests a trip here).  Read in scattered order on node 2,
 * written at home, read and written in scattered order on node 2, then
 * read and written on node 1 (aarch64): the bounds of what comes along are
 * a page the program may only read, amid the table (home ends a run where
 * the access changes), a page unmapped at home, which no run may bring,
 * and pages written on the node before (a write's run does not reach
 * below the page written). */
#include <popcorn.h>
#include <stdio.h>
#include <sys/mman.h>

enum { Page = 4096, Pages = 8192, ReadOnly = 1000, Hole = 5000, Step = 6577 };

static unsigned char *table;

static int usable(long i) { return i != Hole; }
static int writable(long i) { return i != Hole && i != ReadOnly; }

/* Every usable page once, in an order that jumps (Step is odd: all of
 * them). */
static long read_scattered(long first)
{
	long sum = 0;
	for (long k = 0; k < Pages; k++) {
		long i = (first + k * Step) % Pages;
		if (usable(i))
			sum += table[i * Page + i % Page] * (i % 7 + 1);
	}
	return sum;
}

static void write_scattered(long first, unsigned char add)
{
	for (long k = 0; k < Pages; k++) {
		long i = (first + k * Step) % Pages;
		if (writable(i))
			table[i * Page + (i + 1) % Page] += add + table[i * Page + i % Page];
	}
}

static long checksum(void)
{
	long sum = 0;
	for (long i = 0; i < Pages; i++)
		if (usable(i))
			sum += (table[i * Page + i % Page] + 3 * table[i * Page + (i + 1) % Page]) *
			       (i % 5 + 1);
	return sum;
}

int main(void)
{
	table = mmap(0, (size_t)Pages * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (table == MAP_FAILED)
		return 1;
	for (long i = 0; i < Pages; i++)
		table[i * Page + i % Page] = (unsigned char)(i * 13 + 1);
	if (mprotect(table + ReadOnly * Page, Page, PROT_READ) ||
	    munmap(table + Hole * Page, Page))
		return 1;

	popcorn_migrate(2);
	long read = read_scattered(0);
	popcorn_migrate(0);
	printf("read on node 2: %ld\n", read);

	write_scattered(17, 1); /* the node's copies are stale now */
	popcorn_migrate(2);
	read = read_scattered(5);
	write_scattered(3, 2);
	popcorn_migrate(0);
	printf("read and written on node 2: %ld, %ld\n", read, checksum());

	popcorn_migrate(1);
	read = read_scattered(11);
	write_scattered(7, 3);
	popcorn_migrate(0);
	printf("read and written on node 1: %ld, %ld\n", read, checksum());
	return 0;
}
