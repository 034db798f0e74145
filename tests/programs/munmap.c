/* Memory the program unmaps is gone: mincore() and msync() fail with
 * ENOMEM and /proc/self/maps lists no mapping there.  popcorn's home node
 * used to put a PROT_NONE reservation of its arena in its place, which
 * looked mapped (gnulib's test-explicit_bzero then read freed heap memory
 * and crashed). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Whether /proc/self/maps lists anything in [start, end); read with
 * open/read into a static buffer, so that nothing is mapped meanwhile. */
static char maps[1 << 16];

static int listed(unsigned long start, unsigned long end)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	if (fd < 0)
		return -1;
	size_t used = 0;
	ssize_t n;
	while (used < sizeof maps - 1 && (n = read(fd, maps + used, sizeof maps - 1 - used)) > 0)
		used += (size_t)n;
	close(fd);
	maps[used] = 0;
	int found = 0;
	for (char *line = maps; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : 0) {
		unsigned long a = strtoul(line, &line, 16), b = strtoul(line + 1, 0, 16);
		if (a < end && b > start)
			found = 1;
	}
	return found;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t bytes = 4 * page;
	char *p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 7, bytes);
	unsigned char vec[4];
	printf("mapped: mincore %d, listed %d, byte %d\n", mincore(p, bytes, vec), listed((unsigned long)p, (unsigned long)p + bytes), p[page]);
	if (munmap(p + page, 2 * page))
		return 2;
	errno = 0;
	int r = mincore(p + page, 2 * page, vec);
	printf("unmapped middle: mincore %d (%s), listed %d\n", r, errno == ENOMEM ? "ENOMEM" : "other",
	       listed((unsigned long)p + page, (unsigned long)p + 3 * page));
	errno = 0;
	r = msync(p + page, page, MS_ASYNC);
	printf("msync %d (%s)\n", r, errno == ENOMEM ? "ENOMEM" : "other");
	printf("edges: first %d, last %d, still listed %d\n", p[0], p[3 * page], listed((unsigned long)p, (unsigned long)p + page));
	munmap(p, page);
	munmap(p + 3 * page, page);
	/* The range is reused by the next mapping. */
	char *q = mmap(0, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	printf("remapped: %s, zeroed %s\n", q == MAP_FAILED ? "failed" : "ok", q != MAP_FAILED && q[0] == 0 ? "yes" : "no");
	return 0;
}
