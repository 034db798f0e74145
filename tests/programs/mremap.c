/* mremap moves a mapping's pages instead of failing, and realloc of a large
 * block grows through it.  popcorn's home node answered ENOMEM for every
 * mapping of its own address range, so musl's realloc copied the block at
 * each growth: SQLite's fuzzcheck, whose in-memory journal grows a page at
 * a time, ran fifty times slower than with a stock build. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int check(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 7))
			return 0;
	return 1;
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t n = 4 * page;
	unsigned char *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7);

	unsigned char *q = mremap(p, n, 64 * page, MREMAP_MAYMOVE);
	if (q == MAP_FAILED) {
		printf("grow: %s\n", strerror(errno));
		return 1;
	}
	printf("grow: contents kept %d\n", check(q, n));
	memset(q + n, 0xab, 60 * page);
	printf("grow: new pages writable %d\n", q[64 * page - 1] == 0xab);

	unsigned char *r = mremap(q, 64 * page, 2 * page, 0);
	printf("shrink: in place %d, contents kept %d\n", r == q, r != MAP_FAILED && check(r, 2 * page));
	printf("unmap: %d\n", munmap(r, 2 * page));

	/* 4 MiB, a page at a time; each page keeps its number. */
	size_t pages = 1024;
	unsigned char *b = 0;
	for (size_t k = 1; k <= pages; k++) {
		unsigned char *grown = realloc(b, k * page);
		if (!grown) {
			printf("realloc: failed at %zu pages\n", k);
			return 1;
		}
		b = grown;
		memset(b + (k - 1) * page, (int)(k % 251), page);
	}
	size_t bad = 0;
	for (size_t k = 1; k <= pages; k++)
		bad += b[(k - 1) * page] != (unsigned char)(k % 251) || b[k * page - 1] != (unsigned char)(k % 251);
	printf("realloc: %zu pages, %zu wrong\n", pages, bad);
	free(b);
	return 0;
}
