/* No function has migration points: the unwinding self-check and the
 * migrating runs find nothing to do, which the harness must not take for
 * a pass. */
#include <stdio.h>

__attribute__((annotate("popcorn_nomigrate"))) int main(void)
{
	printf("no migration point\n");
	return 0;
}
