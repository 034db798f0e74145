/* Home on aarch64 (run-aarch64-home.sh): blocks that grow, each malloc'd
 * and written on a node, then written again at home, kept or freed.  Home
 * under qemu-aarch64 reads and writes its pages for the node through
 * /proc/self/mem; its first blocks lie next to malloc's guard page and to
 * the arena's inaccessible reservation, which a node's run of pages
 * reaches.  Home must serve those as the kernel would: not readable, not
 * taken as pages it may read in place later.  stdout is the same with a
 * native build, which does not move.
 *
 *   growing-blocks [NODE]   (default 2: another aarch64 process) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __popcorn__
#include <popcorn.h>
#else
static int popcorn_migrate(int node)
{
	(void)node;
	return 0;
}
#endif

enum { Page = 4096, Rounds = 6 };

static unsigned long sum(const unsigned char *p, size_t n)
{
	unsigned long s = 0;
	for (size_t i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

/* Round t: a block 3 pages larger than the last, written on node and at
 * home.  With keep the blocks stay, never freed (malloc maps new groups
 * beside them), else each is freed on node before the next (malloc unmaps
 * it there). */
static void grow(int node, int keep)
{
	unsigned char *p = 0;
	size_t n = 0;
	for (int t = 0; t < Rounds; t++) {
		popcorn_migrate(node);
		if (!keep)
			free(p);
		n += 3 * Page;
		p = malloc(n);
		if (!p) {
			printf("malloc(%zu) failed\n", n);
			exit(1);
		}
		memset(p, t + 1, n);
		popcorn_migrate(0);
		unsigned long away = sum(p, n);
		memset(p + n / 2, 0x55, n - n / 2);
		printf("%s t=%d n=%zu away=%lu home=%lu\n", keep ? "kept" : "freed", t, n, away,
		       sum(p, n));
	}
	free(p);
}

int main(int argc, char **argv)
{
	int node = argc > 1 ? atoi(argv[1]) : 2;
	grow(node, 1);
	grow(node, 0);
	return 0;
}
