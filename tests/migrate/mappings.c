// MIGRATE-MIN: 10
/* Mappings a node makes: anonymous memory mapped away from home reads as
 * zero there, keeps what the node wrote when the thread comes home, and a
 * page of it the node never touched shows what home writes into it on the
 * thread's next trip; a range unmapped away from home is gone at home.  A
 * range unmapped and mapped again away from home (the node keeps it, home
 * never hears of it) reads as zero, and touching it between the two
 * faults as it would at home; pages the node read ahead past such a range
 * go home whole; pages home protects, unmaps or writes between two trips
 * fault or show home's bytes there; a guard page mapped and protected
 * away from home faults there; pages given up with MADV_DONTNEED away
 * from home are zero; memory mapped at an address the program suggests
 * (not MAP_FIXED: gnulib's sigsegv tests suggest one) is the node's too. */
#include <errno.h>
#include <popcorn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { Page = 4096, Pages = 64 };

static long sum(const unsigned char *p, size_t n)
{
	long s = 0;
	for (size_t i = 0; i < n; i += 512)
		s += p[i];
	return s;
}

static sigjmp_buf fault_jump;

static void on_fault(int sig)
{
	(void)sig;
	siglongjmp(fault_jump, 1);
}

/* 1 if reading *p faults. */
static int read_faults(const unsigned char *p)
{
	volatile int faulted = 0;
	signal(SIGSEGV, on_fault);
	if (!sigsetjmp(fault_jump, 1))
		(void)*(volatile const unsigned char *)p;
	else
		faulted = 1;
	signal(SIGSEGV, SIG_DFL);
	return faulted;
}

/* Pages of fresh anonymous memory, every byte set to byte; null if none. */
static unsigned char *map_filled(int pages, int byte)
{
	unsigned char *r = mmap(0, (size_t)pages * Page, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return 0;
	memset(r, byte, (size_t)pages * Page);
	return r;
}

/* Maps 8 pages, dirties them, unmaps them, touches the range (1 if
 * that faulted), maps the same size again and sums it (0: no old byte). */
static int remap(long *sum_again)
{
	unsigned char *r = map_filled(8, 0x5a);
	if (!r)
		return -1;
	munmap(r, 8 * Page);
	int faulted = read_faults(r + 3 * Page);
	unsigned char *again = mmap(0, 8 * Page, PROT_READ | PROT_WRITE,
	                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*sum_again = sum(again, 8 * Page);
	again[5] = 7;
	popcorn_migrate(0);
	*sum_again += again[5] + again[Page + 5];
	munmap(again, 8 * Page);
	return faulted;
}



/* A range unmapped away from home but kept there lies between pages the
 * node reads ahead: the pages written after it must still reach home. */
static int written_past_kept_range(void)
{
	unsigned char *r = map_filled(24, 1);
	if (!r)
		return -1;
	popcorn_migrate(2);
	unsigned char *x = mmap(r + 16 * Page, 4 * Page, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	x[0] = 5;
	munmap(x, 4 * Page);
	/* Writes on and on, upwards (memset starts at the end): the node
	 * reads ahead past x. */
	for (int i = 0; i < 16 * Page; i += 64)
		r[i] = 2;
	r[20 * Page] = 9;
	popcorn_migrate(0);
	int seen = r[0] + r[15 * Page] + r[20 * Page] + r[23 * Page];
	munmap(r, 16 * Page);
	munmap(r + 20 * Page, 4 * Page);
	return seen;
}

/* Pages a node read, which home then protects, unmaps or writes: on the
 * node's next trip the protected and unmapped ones fault, as at home, and
 * the written ones show home's bytes (home no longer reads any of them in
 * place once a mapping changed). */
static int changed_at_home(long *seen)
{
	unsigned char *r = map_filled(16, 3);
	if (!r)
		return -1;
	popcorn_migrate(2);
	*seen = sum(r, 16 * Page);
	popcorn_migrate(0);
	mprotect(r + 4 * Page, 4 * Page, PROT_NONE);
	munmap(r + 8 * Page, 4 * Page);
	r[0] = 10;
	r[12 * Page] = 20;
	popcorn_migrate(2);
	int faults = 0;
	for (int p = 4; p < 12; p += 2)
		faults += read_faults(r + p * Page);
	*seen += sum(r, 4 * Page) + sum(r + 12 * Page, 4 * Page);
	popcorn_migrate(0);
	munmap(r, 8 * Page);
	munmap(r + 12 * Page, 4 * Page);
	return faults;
}

/* A guard page: mapped away from home and protected at once, it faults
 * there as at home, untouched or after the pages around it were written. */
static int guard_away(void)
{
	popcorn_migrate(2);
	unsigned char *r = mmap(0, 4 * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                        -1, 0);
	if (r == MAP_FAILED)
		return -1;
	mprotect(r + Page, Page, PROT_NONE);
	int faults = read_faults(r + Page);
	r[0] = 1;
	r[2 * Page] = 2;
	faults += read_faults(r + Page);
	popcorn_migrate(0);
	mprotect(r + Page, Page, PROT_READ);
	int seen = faults * 100 + r[0] + r[Page] + r[2 * Page];
	munmap(r, 4 * Page);
	return seen;
}

/* Pages written away from home and given up with MADV_DONTNEED read as
 * zero there, as at home, and stay zero when the thread comes back;
 * MADV_FREE, a hint, keeps or drops them as at home (read after a write). */
static long given_up(void)
{
	popcorn_migrate(2);
	unsigned char *r = map_filled(4, 0x11);
	if (!r)
		return -1;
	madvise(r, 2 * Page, MADV_DONTNEED);
	long seen = sum(r, 4 * Page);
	madvise(r + 2 * Page, Page, MADV_FREE);
	r[2 * Page] = 5;
	seen += r[2 * Page];
	popcorn_migrate(0);
	seen += sum(r, 4 * Page);
	munmap(r, 4 * Page);
	return seen;
}

/* Mapped at home at a suggested address below the arena, written there,
 * then read and written on node 2 and 1. */
static long hinted(void)
{
	unsigned char *r = mmap((void *)0x12340000, 4 * Page, PROT_READ | PROT_WRITE,
	                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return -1;
	memset(r, 3, 4 * Page);
	long seen = 0;
	for (int node = 2; node >= 1; node--) {
		popcorn_migrate(node);
		seen = seen * 7 + sum(r, 4 * Page);
		r[node * Page] = 9;
		popcorn_migrate(0);
	}
	seen = seen * 7 + sum(r, 4 * Page);
	munmap(r, 4 * Page);
	return seen;
}

int main(void)
{
	printf("mapped at a suggested address: %ld\n", hinted());
	printf("given up away from home: %ld\n", given_up());
	printf("guard page away from home: %d\n", guard_away());
	long seen;
	int faults = changed_at_home(&seen);
	printf("changed at home: %d faults, seen %ld\n", faults, seen);
	printf("written past a kept range: %d\n", written_past_kept_range());
	for (int node = 2; node >= 1; node--) {
		popcorn_migrate(node);
		/* Mapped first, below m (the arena is handed out upwards): the
		 * node reads ahead upwards from what it touches, and touches
		 * nothing of u on this trip. */
		unsigned char *u = mmap(0, 4 * Page, PROT_READ | PROT_WRITE,
		                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		unsigned char *m = mmap(0, Pages * Page, PROT_READ | PROT_WRITE,
		                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED || u == MAP_FAILED)
			return 1;
		long zero = sum(m, 16 * Page);
		for (int p = 0; p < Pages; p += 3)
			memset(m + p * Page, p + 1, Page);
		/* The middle goes, from a node: home must not have it either. */
		munmap(m + 16 * Page, 16 * Page);

		popcorn_migrate(0);
		long written = 0;
		for (int p = 0; p < 16; p++)
			written += m[p * Page + 100];
		for (int p = 32; p < Pages; p++)
			written += m[p * Page + 100];
		errno = 0;
		int gone = msync(m + 20 * Page, Page, MS_ASYNC) == -1 && errno == ENOMEM;
		/* Pages the node has not touched. */
		u[0] = 42;
		u[3 * Page + 7] = 43;

		popcorn_migrate(node);
		int seen = u[0] + u[3 * Page + 7] + u[Page];
		popcorn_migrate(0);
		printf("node %d: zero %ld, written %ld, gone %d, seen %d\n", node, zero, written,
		       gone, seen);
		munmap(u, 4 * Page);
		munmap(m, 16 * Page);
		munmap(m + 32 * Page, 32 * Page);

		popcorn_migrate(node);
		long again;
		int faulted = remap(&again);
		printf("node %d: unmapped range faulted %d, mapped again %ld\n", node, faulted, again);
	}
	return 0;
}
