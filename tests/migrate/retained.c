// MIGRATE-MIN: 9
// MIGRATE-ENV: POPCORN_TRACK_WRITES=1
// MIGRATE-ENV: POPCORN_TRACK_WRITES=0
// MIGRATE-FETCHES-BELOW: 30000
/* Pages a node keeps between trips: what home writes, discards or maps
 * anew while the thread is home is seen on the node's next trip.  In 80
 * MiB the node reads on every trip, more than home hashes: where the
 * kernel tells home which pages it wrote, the node keeps them (the bound
 * on fetches: the first trip's pages go once, home asking the kernel from
 * the page past what it hashes on, then only the pages home wrote); with
 * POPCORN_TRACK_WRITES=0 it forgets them all at every trip.  Then a page
 * the node only read, one it wrote, on nodes 1 and 2, and pages home
 * unmapped and mapped again, discarded or protected: one protected to
 * nothing or unmapped faults on the node as it would at home, although
 * the node held it.  Between the
 * 80 MiB trips the program takes the top descriptors, where the runtime
 * keeps its own: they move out of its way, the userfaultfd that tracks
 * home's writes among them, and the node still keeps the 80 MiB; and a
 * child forked then moves with its own copy, on nodes of its own. */
#include <fcntl.h>
#include "open-up.h"
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { Page = 4096, BigPages = 20480, TopFd = 1023, Taken = 64 };

static long sum(const unsigned char *p, size_t n, size_t stride)
{
	long s = 0;
	for (size_t i = 0; i < n; i += stride)
		s += p[i];
	return s;
}

/* Trips to node 2 reading big, written at home in between. */
static void big_trips(unsigned char *big, int first, int last)
{
	for (int trip = first; trip <= last; trip++) {
		popcorn_migrate(2);
		long seen = sum(big, (size_t)BigPages * Page, Page);
		popcorn_migrate(0);
		printf("80 MiB, trip %d: %ld\n", trip, seen);
		big[(size_t)(7 + trip) * Page] = (unsigned char)(5 + trip);
		big[(size_t)(BigPages - 1 - trip) * Page] = 6;
	}
}

int main(void)
{
	unsigned char *big = malloc((size_t)BigPages * Page);
	memset(big, 2, (size_t)BigPages * Page);
	big_trips(big, 0, 3);
	for (int fd = TopFd; fd > TopFd - Taken; fd--)
		dup2(2, fd);
	big_trips(big, 4, 5);
	int kept = 0;
	for (int fd = TopFd; fd > TopFd - Taken; fd--)
		kept += fcntl(fd, F_GETFD) >= 0;
	printf("%d of the top descriptors the program's\n", kept);

	/* A child forked now has its own copy of big, and its own nodes. */
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		popcorn_migrate(2);
		big[100 * Page] = 99;
		popcorn_migrate(0);
		big[101 * Page] = 77;
		popcorn_migrate(2);
		printf("child: %ld\n", sum(big, (size_t)BigPages * Page, Page));
		popcorn_migrate(0);
		fflush(stdout);
		_exit(0);
	}
	int status;
	waitpid(child, &status, 0);
	big_trips(big, 6, 7);

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

	open_up_on_faults();
	unsigned char *m = mmap(NULL, 16 * Page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	memset(m, 7, 16 * Page);
	popcorn_migrate(2);
	long before = sum(m, 16 * Page, 1);
	popcorn_migrate(0);
	munmap(m + 3 * Page, Page); /* mapped again: zeros */
	mmap(m + 3 * Page, Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
	     -1, 0);
	madvise(m + 5 * Page, 2 * Page, MADV_DONTNEED); /* discarded: zeros */
	mprotect(m + 11 * Page, Page, PROT_NONE); /* the same bytes, unreadable */
	munmap(m + 13 * Page, Page); /* none */
	popcorn_migrate(2);
	long after = sum(m, 11 * Page, 1);
	long faulted = m[11 * Page] + m[13 * Page];
	popcorn_migrate(0);
	printf("mapped again, discarded: %ld, then %ld; unreadable, unmapped: %d faults, %ld\n",
	       before, after, faults, faulted);
	mprotect(m + 9 * Page, Page, PROT_READ); /* the same bytes, read-only */
	popcorn_migrate(2);
	after = sum(m, 11 * Page, 1);
	popcorn_migrate(0);
	printf("protected: %ld\n", after);
	return 0;
}
