// MIGRATE-MIN: 1
/* The names popcorn_isa and popcorn_node_isa give are read after the
 * thread moved: kept at home and read on aarch64, taken there and read at
 * home (each image's own string literal crashed the other). */
#include <popcorn.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	const char *home = popcorn_isa(), *one = popcorn_node_isa(1);
	char one_before[16];
	snprintf(one_before, sizeof one_before, "%s", one ? one : "");
	popcorn_migrate(1);
	printf("home's name, read here: %s\n", home);
	printf("node 1's name, read here: %s\n",
	       !one || strcmp(one, one_before) == 0 ? "as before" : "changed");
	const char *there = popcorn_isa();
	char there_before[16];
	snprintf(there_before, sizeof there_before, "%s", there);
	popcorn_migrate(0);
	printf("the name taken away, read at home: %s\n",
	       strcmp(there, there_before) == 0 ? "as before" : "changed");
	return 0;
}
