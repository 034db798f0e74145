/* Forty rounds of a loop with a call, each printed: a small program whose
 * output tells a run that moved from one that went wrong. */
#include <stdio.h>
static unsigned long step(unsigned long x, int i) { return x * 6364136223846793005ul + (unsigned long)i; }
__attribute__((noinline)) static unsigned long round_of(unsigned long x, int n) {
	for (int i = 0; i < n; i++)
		x = step(x, i) ^ (x >> 29);
	return x;
}
int main(void) {
	unsigned long x = 1;
	for (int r = 0; r < 40; r++) {
		x = round_of(x, 1000 + r);
		printf("round %d: %016lx\n", r, x);
	}
	return 0;
}
