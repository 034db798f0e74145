// MIGRATE-MIN: 1
/* Memory allocated on one node and freed on the other, both ways: small
 * blocks from malloc's heap, a large one from mmap, and realloc growing a
 * block across a move. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *home[64], *away[64];
	for (int i = 0; i < 64; i++) {
		home[i] = malloc(16 + i * 40);
		memset(home[i], 'a' + i % 26, 16 + i * 40);
	}
	char *big = malloc(1 << 20); /* mmap'd by malloc */
	memset(big, 7, 1 << 20);
	char *grow = strdup("grown at home");

	popcorn_migrate(1);
	long sum = 0;
	for (int i = 0; i < 64; i++) {
		sum += home[i][15 + i * 40];
		free(home[i]);
		away[i] = malloc(24 + i * 32);
		memset(away[i], 'A' + i % 26, 24 + i * 32);
	}
	for (int i = 0; i < 1 << 20; i += 4096)
		sum += big[i];
	free(big);
	grow = realloc(grow, 100000);
	strcat(grow, ", then away");
	char *big2 = malloc(3 << 20);
	memset(big2, 9, 3 << 20);

	popcorn_migrate(0);
	for (int i = 0; i < 64; i++) {
		sum += away[i][23 + i * 32];
		free(away[i]);
	}
	for (int i = 0; i < 3 << 20; i += 4096)
		sum += big2[i];
	free(big2);
	printf("sum %ld, %s\n", sum, grow);
	free(grow);
	return 0;
}
