// MIGRATE-MIN: 1
/* A program written for Popcorn Linux: <migrate.h> unchanged. */
#include <migrate.h>
#include <stdio.h>

static int callbacks;

static void arrived(void *data)
{
	callbacks++;
	*(int *)data = current_nid();
}

int main(void)
{
	int where = -1, bad = 0;
	if (!node_available(0) || node_available(99))
		bad++;
	migrate(1, arrived, &where);
	if (current_nid() == 1 && (where != 1 || current_arch() != ARCH_AARCH64 || callbacks != 1))
		bad++;
	check_migrate(arrived, &where); /* nothing asked for: stays */
	migrate(0, NULL, NULL);
	if (current_nid() != 0 || current_arch() != ARCH_X86_64)
		bad++;
	printf("%d problems\n", bad);
	return bad;
}
