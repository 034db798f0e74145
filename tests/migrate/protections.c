// MIGRATE-MIN: 10
/* The protections the program gives its pages hold on every node, as
 * at home: a write to a page it protected read-only faults, away from
 * home too, whether the node already held the page (from an earlier
 * trip, or written there) or fetches it now; a page it protected to
 * nothing faults when read; a read-only mapping faults when written; and a
 * page made writable again at home is writable away from home, also
 * where the thread writes through pages in order.  Each
 * fault runs the program's handler, which opens the page up (as a
 * collector's write barrier does) and the access goes on; what the
 * accesses wrote must reach home. */
#include "open-up.h"
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { Page = 4096 };

static unsigned char *map(int prot)
{
	unsigned char *r = mmap(0, 2 * Page, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return r == MAP_FAILED ? 0 : r;
}

/* Written on node, protected read-only at home, written on node again:
 * the node still holds the page from the first trip. */
static int protected_at_home(int node)
{
	unsigned char *r = map(PROT_READ | PROT_WRITE);
	if (!r)
		return -1;
	r[0] = 1;
	popcorn_migrate(node);
	r[1] = r[0] + 1;
	r[Page] = 9;
	popcorn_migrate(0);
	mprotect(r, 2 * Page, PROT_READ);
	faults = 0;
	popcorn_migrate(node);
	r[2] = r[1] + 1;
	r[Page + 1] = 10;
	popcorn_migrate(0);
	int seen = faults * 1000 + r[0] + r[1] + r[2] + r[Page] + r[Page + 1];
	munmap(r, 2 * Page);
	return seen;
}

/* Written on node, then protected there: what it wrote stays, reads go
 * on, and the next write faults. */
static int protected_away(int node)
{
	popcorn_migrate(node);
	unsigned char *r = map(PROT_READ | PROT_WRITE);
	if (!r)
		return -1;
	r[0] = 5;
	r[Page] = 6;
	mprotect(r, Page, PROT_READ);
	faults = 0;
	int seen = r[0] + r[Page];
	r[1] = 7;
	mprotect(r + Page, Page, PROT_NONE);
	seen += r[Page + 1];
	popcorn_migrate(0);
	seen += faults * 1000 + r[0] + r[1] + r[Page];
	munmap(r, 2 * Page);
	return seen;
}

/* Mapped read-only at home: read on node, then written there.  Then made
 * writable at home: the node, which holds it read-only, lets it be
 * written. */
static int read_only_mapping(int node)
{
	unsigned char *r = map(PROT_READ);
	if (!r)
		return -1;
	faults = 0;
	popcorn_migrate(node);
	int seen = r[0] + r[Page];
	r[Page] = 11;
	popcorn_migrate(0);
	seen += r[Page];
	mprotect(r, Page, PROT_READ | PROT_WRITE);
	popcorn_migrate(node);
	r[0] = 12;
	popcorn_migrate(0);
	seen += faults * 1000 + r[0];
	munmap(r, 2 * Page);
	return seen;
}

/* Written in order through pages the node holds read-only, which makes
 * the pages after each written one writable ahead of the thread: on the
 * heap (which a node keeps between trips), the pages it wrote on the last
 * trip, of which home wrote one meanwhile (it comes again, with home's
 * bytes); then pages it read on this trip, of which the program
 * protected one read-only at home (a write to it still faults). */
static long written_in_order(int node)
{
	enum { Pages = 256, Changed = 50, Locked = 200 };
	unsigned char *r = aligned_alloc(Page, Pages * Page);
	if (!r)
		return -1;
	for (int i = 0; i < Pages; i++)
		r[i * Page] = (unsigned char)i;
	long seen = 0;
	popcorn_migrate(node);
	for (int i = 0; i < Pages; i++)
		r[i * Page]++;
	popcorn_migrate(0);
	r[Changed * Page] = 100;
	popcorn_migrate(node);
	for (int i = 0; i < Pages; i += 1 + (i > Pages / 2))
		r[i * Page] += 2;
	popcorn_migrate(0);
	mprotect(r + Locked * Page, Page, PROT_READ);
	faults = 0;
	popcorn_migrate(node);
	for (int i = 0; i < Pages; i++)
		seen += r[i * Page + 1];
	for (int i = 0; i < Pages; i++)
		r[i * Page] += 3;
	popcorn_migrate(0);
	for (int i = 0; i < Pages; i++)
		seen = seen * 3 + r[i * Page];
	free(r);
	return seen % 1000000007 + 1000000007L * faults;
}

int main(void)
{
	open_up_on_faults();
	for (int node = 2; node >= 1; node--) {
		printf("node %d: protected at home %d\n", node, protected_at_home(node));
		printf("node %d: protected away %d\n", node, protected_away(node));
		printf("node %d: read-only mapping %d\n", node, read_only_mapping(node));
		printf("node %d: written in order %ld\n", node, written_in_order(node));
	}
	return 0;
}
