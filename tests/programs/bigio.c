// POPCORN-MIGRATE-EVERY: 3
/* Reads and writes of more than a mebibyte in one call: read, readv and
 * fread of a 3 MiB file, written with write.  Away from home each call is
 * forwarded home, at most 1 MiB of it (a short count, which the loops
 * below take as any program must); a read of more than 1,048,572 bytes
 * once ended the program there ("node ended while the thread was there").
 * Each round runs in calls of its own, so that the thread moves between
 * them. */
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define BYTES (3u << 20)

static const char *file = "bigio-test.bin";

static uint64_t checksum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

__attribute__((noinline)) static void fill(unsigned char *p, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < BYTES; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

__attribute__((noinline)) static int write_all(const unsigned char *p)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	size_t done = 0;
	while (done < BYTES) {
		ssize_t n = write(fd, p + done, BYTES - done);
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return close(fd);
}

__attribute__((noinline)) static uint64_t read_whole(unsigned char *p)
{
	int fd = open(file, O_RDONLY);
	size_t done = 0;
	ssize_t n;
	while (fd >= 0 && done < BYTES && (n = read(fd, p + done, BYTES - done)) > 0)
		done += (size_t)n;
	close(fd);
	return done == BYTES ? checksum(p, BYTES) : 0;
}

__attribute__((noinline)) static uint64_t read_vectors(unsigned char *p)
{
	int fd = open(file, O_RDONLY);
	size_t done = 0;
	ssize_t n;
	while (fd >= 0 && done < BYTES) {
		/* Two halves of what is left, the first at most 1.5 MiB. */
		size_t left = BYTES - done, first = left / 2;
		struct iovec v[2] = {{p + done, first}, {p + done + first, left - first}};
		if ((n = readv(fd, v, 2)) <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	return done == BYTES ? checksum(p, BYTES) : 0;
}

__attribute__((noinline)) static uint64_t read_stdio(unsigned char *p)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		return 0;
	size_t n = fread(p, 1, BYTES, f);
	fclose(f);
	return n == BYTES ? checksum(p, BYTES) : 0;
}

int main(void)
{
	unsigned char *data = malloc(BYTES), *back = malloc(BYTES);
	if (!data || !back)
		return 1;
	for (unsigned round = 0; round < 3; round++) {
		fill(data, round);
		if (write_all(data) != 0) {
			printf("round %u: write failed\n", round);
			return 1;
		}
		uint64_t want = checksum(data, BYTES);
		printf("round %u: wrote %016llx\n", round, (unsigned long long)want);
		memset(back, 0, BYTES);
		printf("  read  %s\n", read_whole(back) == want ? "same" : "DIFFERENT");
		memset(back, 0, BYTES);
		printf("  readv %s\n", read_vectors(back) == want ? "same" : "DIFFERENT");
		memset(back, 0, BYTES);
		printf("  fread %s\n", read_stdio(back) == want ? "same" : "DIFFERENT");
	}
	unlink(file);
	return 0;
}
