// MIGRATE-MIN: 10
/* The protections the program gives its pages hold on every node, as
 * at home: a write to a page it protected read-only faults, away from
 * home too, whether the node already held the page (from an earlier
 * trip, or written there) or fetches it now; a page it protected to
 * nothing faults when read; a read-only mapping faults when written; and a
 * page made writable again at home is writable away from home.  Each
 * fault runs the program's handler, which opens the page up (as a
 * collector's write barrier does) and the access goes on; what the
 * accesses wrote must reach home. */
#include "open-up.h"
#include <popcorn.h>
#include <stdio.h>
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

int main(void)
{
	open_up_on_faults();
	for (int node = 2; node >= 1; node--) {
		printf("node %d: protected at home %d\n", node, protected_at_home(node));
		printf("node %d: protected away %d\n", node, protected_away(node));
		printf("node %d: read-only mapping %d\n", node, read_only_mapping(node));
	}
	return 0;
}
