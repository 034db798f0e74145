// POPCORN-MIGRATE-EVERY: 1
/* malloc/calloc/realloc/free stress driven by a deterministic PRNG;
 * contents are verified and summed, never addresses printed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 512
#define ROUNDS 60000

static uint64_t state = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(void)
{
	/* xorshift64* */
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return (uint32_t)((state * 0x2545f4914f6cdd1dULL) >> 32);
}

struct slot {
	unsigned char *p;
	size_t size;
	unsigned char fill;
};

static struct slot slots[SLOTS];

static int check(const struct slot *s)
{
	for (size_t i = 0; i < s->size; i++)
		if (s->p[i] != (unsigned char)(s->fill + i))
			return 0;
	return 1;
}

static void fill(struct slot *s, size_t from)
{
	for (size_t i = from; i < s->size; i++)
		s->p[i] = (unsigned char)(s->fill + i);
}

static size_t pick_size(void)
{
	uint32_t r = rnd();
	switch (r % 8) {
	case 0: return r % 16;
	case 1: case 2: case 3: return 16 + r % 256;
	case 4: case 5: return 256 + r % 4096;
	case 6: return 4096 + r % 65536;
	default: return (r % 64) ? 32 : 200000 + r % 300000; /* occasionally mmap-sized */
	}
}

int main(void)
{
	unsigned long allocs = 0, frees = 0, reallocs = 0, callocs = 0, bad = 0;
	uint64_t checksum = 0;

	for (int round = 0; round < ROUNDS; round++) {
		struct slot *s = &slots[rnd() % SLOTS];
		uint32_t op = rnd() % 10;
		if (s->p && !check(s))
			bad++;
		if (!s->p || op < 3) {
			free(s->p);
			if (s->p)
				frees++;
			s->size = pick_size();
			s->fill = (unsigned char)rnd();
			if (op == 1) {
				s->p = calloc(s->size ? s->size : 1, 1);
				callocs++;
				for (size_t i = 0; i < s->size; i++)
					if (s->p[i])
						bad++;
			} else {
				s->p = malloc(s->size ? s->size : 1);
				allocs++;
			}
			if (!s->p) {
				printf("allocation failed\n");
				return 1;
			}
			fill(s, 0);
		} else if (op < 6) {
			size_t old = s->size;
			size_t size = pick_size();
			unsigned char *q = realloc(s->p, size ? size : 1);
			if (!q) {
				printf("realloc failed\n");
				return 1;
			}
			s->p = q;
			s->size = size;
			reallocs++;
			/* the common prefix must have survived */
			for (size_t i = 0; i < (old < size ? old : size); i++)
				if (q[i] != (unsigned char)(s->fill + i))
					bad++;
			fill(s, old < size ? old : size);
		} else if (op == 6) {
			free(s->p);
			s->p = NULL;
			s->size = 0;
			frees++;
		} else {
			for (size_t i = 0; i < s->size; i += 97)
				checksum = checksum * 31 + s->p[i];
		}
	}
	for (int i = 0; i < SLOTS; i++) {
		if (slots[i].p && !check(&slots[i]))
			bad++;
		for (size_t k = 0; k < slots[i].size; k += 13)
			checksum = checksum * 131 + slots[i].p[k];
		free(slots[i].p);
	}
	/* a matrix of rows allocated separately, then one big calloc */
	{
		int rows = 300, cols = 257;
		double **m = malloc(rows * sizeof *m);
		double total = 0;
		for (int r = 0; r < rows; r++) {
			m[r] = malloc(cols * sizeof **m);
			for (int c = 0; c < cols; c++)
				m[r][c] = (r * 7 + c * 3) % 101 / 4.0;
		}
		for (int r = 0; r < rows; r++) {
			for (int c = 0; c < cols; c++)
				total += m[r][c];
			free(m[r]);
		}
		free(m);
		long *big = calloc(1 << 20, sizeof(long));
		long sum = 0;
		for (int i = 0; i < (1 << 20); i += 4096)
			sum += big[i];
		free(big);
		printf("matrix total %.2f, big calloc sum %ld\n", total, sum);
	}
	printf("allocs %lu callocs %lu reallocs %lu frees %lu\n", allocs, callocs, reallocs, frees);
	printf("checksum %016llx bad %lu\n", (unsigned long long)checksum, bad);
	return bad != 0;
}
