// POPCORN-MIGRATE-EVERY: 1
/* Global data: initialized, zero-initialized, const tables, static locals,
 * arrays of structs, pointers in initializers. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int counter = 7;
long zeroed;
static double ratios[5] = {0.5, 1.25, -3.0};
char message[32] = "initialized message";
static char bss_buffer[4096];
const unsigned short primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47};
static const char *const names[] = {"zero", "one", "two", "three", "four"};
int *counter_ptr = &counter;
const char *message_tail = message + 12;
long long big_init = 0x0123456789abcdefLL;
float small_init = 1.5f;
long double ld_init = 1.0L / 7;

struct point {
	int x, y;
	const char *label;
};

struct shape {
	const char *name;
	int npoints;
	struct point pts[4];
	double area;
} shapes[] = {
	{"triangle", 3, {{0, 0, "a"}, {4, 0, "b"}, {0, 3, "c"}}, 6.0},
	{"square", 4, {{0, 0, "p"}, {2, 0, "q"}, {2, 2, "r"}, {0, 2, "s"}}, 4.0},
	{"degenerate", 1, {{5, 5, "only"}}, 0.0},
};

struct shape *shape_ptrs[] = {&shapes[2], &shapes[0], &shapes[1]};

/* a designated-initializer table with holes */
static const int sparse[16] = {[1] = 10, [7] = 70, [15] = 150};

union pun {
	uint32_t u;
	float f;
	unsigned char bytes[4];
} pun = {.f = -2.0f};

struct bits {
	unsigned a : 3;
	signed b : 5;
	unsigned c : 12;
	unsigned d : 1;
} bitfields = {5, -9, 3000, 1};

static int next_id(void)
{
	static int id = 100;
	static int calls;
	calls++;
	return id++ * 1000 + calls;
}

static const char *cached(void)
{
	static char buf[16];
	static int initialized;
	if (!initialized) {
		strcpy(buf, "computed once");
		initialized = 1;
	}
	return buf;
}

int main(void)
{
	printf("counter %d via pointer %d zeroed %ld\n", counter, *counter_ptr, zeroed);
	*counter_ptr += 5;
	zeroed -= 3;
	printf("after update: %d %ld\n", counter, zeroed);
	for (int i = 0; i < 5; i++)
		printf("ratio[%d] = %g\n", i, ratios[i]);
	printf("message [%s] tail [%s]\n", message, message_tail);
	strcpy(message + 12, "MESSAGE");
	printf("message [%s] tail [%s]\n", message, message_tail);

	int nonzero = 0;
	for (size_t i = 0; i < sizeof bss_buffer; i++)
		nonzero += bss_buffer[i] != 0;
	memset(bss_buffer, 'z', 10);
	printf("bss nonzero %d then %zu\n", nonzero, strlen(bss_buffer));

	unsigned psum = 0;
	for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++)
		psum += primes[i];
	printf("primes %zu sum %u\n", sizeof primes / sizeof primes[0], psum);
	for (int i = 0; i < 5; i++)
		printf("%s%c", names[i], i < 4 ? ',' : '\n');
	printf("big %llx small %.2f ld %.30Lf\n", big_init, small_init, ld_init);

	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		const struct shape *s = shape_ptrs[i];
		printf("%s n=%d area=%.1f:", s->name, s->npoints, s->area);
		for (int k = 0; k < s->npoints; k++)
			printf(" %s(%d,%d)", s->pts[k].label, s->pts[k].x, s->pts[k].y);
		printf("\n");
	}
	printf("sizeof struct shape %zu point %zu\n", sizeof(struct shape), sizeof(struct point));
	for (int i = 0; i < 16; i++)
		if (sparse[i])
			printf("sparse[%d]=%d\n", i, sparse[i]);
	printf("pun %08x bytes %02x %02x %02x %02x\n", pun.u, pun.bytes[0], pun.bytes[1], pun.bytes[2], pun.bytes[3]);
	printf("bitfields %u %d %u %u\n", bitfields.a, bitfields.b, bitfields.c, bitfields.d);
	bitfields.b += 20;
	bitfields.a = (unsigned)counter;
	printf("bitfields %u %d %u %u\n", bitfields.a, bitfields.b, bitfields.c, bitfields.d);
	for (int i = 0; i < 3; i++)
		printf("id %d\n", next_id());
	printf("%s / %s\n", cached(), cached());
	return 0;
}
