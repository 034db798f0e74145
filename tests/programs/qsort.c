// POPCORN-MIGRATE-EVERY: 3 7
/* qsort with comparator callbacks (libc calls back into the program) and
 * bsearch. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct person {
	char name[12];
	int age;
	double score;
};

static unsigned calls;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	calls++;
	return (x > y) - (x < y);
}

static int cmp_int_desc(const void *a, const void *b)
{
	return cmp_int(b, a);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_person(const void *a, const void *b)
{
	const struct person *p = a, *q = b;
	if (p->age != q->age)
		return p->age - q->age;
	if (p->score != q->score)
		return p->score < q->score ? 1 : -1;
	return strcmp(p->name, q->name);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

#define N 20000
static int numbers[N];
static uint64_t wide[N];

int main(void)
{
	uint32_t seed = 12345;
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		numbers[i] = (int)(seed >> 8) % 100000 - 50000;
		wide[i] = ((uint64_t)seed << 32) ^ (seed * 2654435761u);
	}
	qsort(numbers, N, sizeof numbers[0], cmp_int);
	int sorted = 1;
	long long sum = 0;
	for (int i = 0; i < N; i++) {
		sum += (long long)numbers[i] * (i % 7 + 1);
		if (i && numbers[i - 1] > numbers[i])
			sorted = 0;
	}
	printf("ints sorted %d min %d max %d median %d weighted sum %lld\n", sorted, numbers[0],
	       numbers[N - 1], numbers[N / 2], sum);
	printf("comparator was called: %s\n", calls > N ? "yes" : "no");

	int found = 0, missing = 0;
	for (int key = -50000; key < 50000; key += 37) {
		int *hit = bsearch(&key, numbers, N, sizeof numbers[0], cmp_int);
		if (hit && *hit == key)
			found++;
		else if (!hit)
			missing++;
	}
	printf("bsearch found %d missing %d\n", found, missing);

	qsort(numbers, N, sizeof numbers[0], cmp_int_desc);
	printf("desc first %d last %d\n", numbers[0], numbers[N - 1]);

	qsort(wide, N, sizeof wide[0], cmp_u64);
	uint64_t h = 0;
	for (int i = 0; i < N; i += 100)
		h = h * 1000003 ^ wide[i];
	printf("u64 hash %016llx\n", (unsigned long long)h);

	const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date", "elderberry",
			       "grape", "kiwi", "apricot", "lemon", "mango"};
	size_t nw = sizeof words / sizeof words[0];
	qsort(words, nw, sizeof words[0], cmp_str);
	for (size_t i = 0; i < nw; i++)
		printf("%s%s", words[i], i + 1 < nw ? " " : "\n");
	const char *key = "grape";
	const char **w = bsearch(&key, words, nw, sizeof words[0], cmp_str);
	printf("bsearch grape at %d\n", w ? (int)(w - words) : -1);
	key = "zucchini";
	printf("bsearch zucchini %s\n", bsearch(&key, words, nw, sizeof words[0], cmp_str) ? "found" : "absent");

	struct person people[] = {
		{"ann", 31, 7.5}, {"bob", 25, 9.0}, {"cyd", 31, 8.25}, {"dee", 19, 6.0},
		{"eve", 25, 9.0}, {"fay", 40, 1.0}, {"gus", 19, 6.5}, {"hal", 31, 7.5},
	};
	size_t np = sizeof people / sizeof people[0];
	qsort(people, np, sizeof people[0], cmp_person);
	for (size_t i = 0; i < np; i++)
		printf("%s %d %.2f\n", people[i].name, people[i].age, people[i].score);
	return 0;
}
