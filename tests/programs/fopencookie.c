/* A stream of the program's own: fopencookie with read, write, seek and
 * close callbacks, written, sought, read back and closed while the thread
 * moves.  fopencookie takes its cookie_io_functions_t (32 bytes) by value:
 * aarch64 IR passes the address of a copy, x86-64 musl reads the struct
 * from the stack, so on x86-64 it called whatever the stack held there
 * (popcorn-llc's LibcCallRules.def).
 *
 * The callbacks have no migration point: musl's stdio frames below them
 * have no call-site records, so no stack walk can cross them, and the
 * unwinding self-check would fail at such a point (a request waits for the
 * callback to return).  So they take no loop and call no function: the
 * stream is unbuffered and moves whole 8-byte records, each byte by hand. */
// POPCORN-MIGRATE-EVERY: 1
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum { Capacity = 64, Record = sizeof(uint64_t) };

struct records {
	uint64_t slots[Capacity];
	size_t count, at;
	int reads, writes, seeks, closes;
};

static uint64_t load(const char *p)
{
	const unsigned char *b = (const unsigned char *)p;
	return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24 |
	       (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
}

static void store(char *p, uint64_t v)
{
	unsigned char *b = (unsigned char *)p;
	b[0] = (unsigned char)v, b[1] = (unsigned char)(v >> 8), b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24), b[4] = (unsigned char)(v >> 32), b[5] = (unsigned char)(v >> 40);
	b[6] = (unsigned char)(v >> 48), b[7] = (unsigned char)(v >> 56);
}

static ssize_t records_read(void *cookie, char *buf, size_t len)
{
	struct records *r = cookie;
	r->reads++;
	if (r->at == r->count)
		return 0;
	if (len < Record)
		return -1;
	store(buf, r->slots[r->at++]);
	return Record;
}

static ssize_t records_write(void *cookie, const char *buf, size_t len)
{
	struct records *r = cookie;
	r->writes++;
	if (len != Record || r->at == Capacity)
		return -1;
	r->slots[r->at++] = load(buf);
	if (r->at > r->count)
		r->count = r->at;
	return Record;
}

static int records_seek(void *cookie, off64_t *offset, int whence)
{
	struct records *r = cookie;
	r->seeks++;
	off64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (off64_t)(r->at * Record)
	                                                          : (off64_t)(r->count * Record);
	off64_t to = base + *offset;
	if (to < 0 || to % Record || to / Record > (off64_t)r->count)
		return -1;
	r->at = (size_t)(to / Record);
	*offset = to;
	return 0;
}

static int records_close(void *cookie)
{
	struct records *r = cookie;
	r->closes++;
	return r->count == 0 ? -1 : 0;
}

static struct records records;

static void report(const char *when)
{
	printf("%s: %zu records, at %zu; reads %d writes %d seeks %d closes %d\n", when,
	       records.count, records.at, records.reads, records.writes, records.seeks,
	       records.closes);
}

static uint64_t square(uint64_t i) { return i * i * 0x9e3779b97f4a7c15u; }

/* One stream operation a call: a migration point at each entry, so the
 * thread moves between them and the stream is used on every ISA. */
__attribute__((noinline)) static int put(FILE *f, uint64_t v)
{
	return fwrite(&v, sizeof v, 1, f) == 1;
}

__attribute__((noinline)) static int get(FILE *f, uint64_t *v)
{
	return fread(v, sizeof *v, 1, f) == 1;
}

__attribute__((noinline)) static int seek(FILE *f, long offset, int whence)
{
	return fseek(f, offset, whence);
}

int main(void)
{
	cookie_io_functions_t io = {records_read, records_write, records_seek, records_close};
	FILE *f = fopencookie(&records, "w+", io);
	if (!f || setvbuf(f, NULL, _IONBF, 0) != 0) {
		perror("fopencookie");
		return 1;
	}
	for (uint64_t i = 0; i < 40; i++)
		if (!put(f, square(i)))
			printf("write %llu failed\n", (unsigned long long)i);
	report("written");
	printf("ftell %ld\n", ftell(f));
	seek(f, 0, SEEK_SET);
	uint64_t v, sum = 0;
	for (int n = 0; get(f, &v); n++) {
		sum += v;
		if (n % 8 == 0)
			printf("record %d: %#llx\n", n, (unsigned long long)v);
	}
	printf("sum %#llx, end of file %d\n", (unsigned long long)sum, feof(f));
	report("read");
	seek(f, -3 * (long)sizeof v, SEEK_END);
	if (get(f, &v))
		printf("third from the end: %#llx\n", (unsigned long long)v);
	printf("seek to a half record: %d\n", seek(f, 4, SEEK_SET));
	printf("fclose %d\n", fclose(f));
	report("closed");
	return 0;
}
