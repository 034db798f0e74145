// POPCORN-MIGRATE-EVERY: 1
/* Every printf conversion, with widths, precisions and flags. */
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	int n1 = 0, n2 = 0;
	signed char hh = -100;
	short h = -31000;
	long long ll = -9000000000000000000LL;
	unsigned long long ull = 18000000000000000000ULL;
	size_t z = 123456789012345UL;
	ptrdiff_t t = -987654321012L;
	intmax_t j = INTMAX_MIN;
	uintmax_t uj = UINTMAX_MAX;

	printf("d: [%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.4d]\n", 42, 42, 42, 42, 42, 42, 7, -7);
	printf("i: [%i] [%i] [%i]\n", 0, -2147483647 - 1, 2147483647);
	printf("u: [%u] [%10u] [%-10u|]\n", 4294967295u, 17u, 17u);
	printf("o: [%o] [%#o] [%#o] [%08o]\n", 8u, 8u, 0u, 511u);
	printf("x: [%x] [%#x] [%X] [%#X] [%#010x] [%.6x]\n", 0xbeefu, 0xbeefu, 0xbeefu, 0xbeefu, 0xab, 0x1f);
	printf("c: [%c] [%3c] [%-3c|]\n", 'A', 'b', 'c');
	printf("s: [%s] [%10s] [%-10s|] [%.3s] [%*s] [%-*.*s|]\n", "popcorn", "abc", "abc", "truncate", 6, "w", 8, 2, "precision");
	printf("hh: [%hhd] [%hhu] [%hhx]\n", hh, (unsigned char)200, (unsigned char)0xfe);
	printf("h: [%hd] [%hu] [%hx]\n", h, (unsigned short)65535, (unsigned short)0x1234);
	printf("l: [%ld] [%lu] [%lx]\n", -1234567890123L, 1234567890123UL, 0xdeadbeefcafeUL);
	printf("ll: [%lld] [%llu] [%llx] [%#llo]\n", ll, ull, ull, 0777ULL);
	printf("z: [%zu] [%zx] [%zd]\n", z, z, (ptrdiff_t)-5);
	printf("t: [%td]\n", t);
	printf("j: [%jd] [%ju] [%jx]\n", j, uj, uj);
	printf("%%: [%%] [100%%]\n");

	printf("f: [%f] [%.0f] [%.1f] [%10.3f] [%-10.2f|] [%+f] [% f] [%010.2f] [%#.0f]\n",
	       3.14159265358979, 2.5, 0.05, -1.0 / 3, 2.0 / 3, 1.0, 1.0, -9.875, 7.0);
	printf("f: [%f] [%f] [%.20f] [%f]\n", 1e20, 1e-20, 0.1, -0.0);
	printf("e: [%e] [%.0e] [%.3e] [%E] [%+12.4e] [%#.0e]\n", 12345.678, 5.5, 1e-300, 6.02214076e23, -0.000123, 3.0);
	printf("g: [%g] [%g] [%g] [%.3g] [%#g] [%G] [%.10g] [%g]\n", 100000.0, 1000000.0, 0.0001, 3.14159, 1.0, 1e-10, 1.0 / 7, 0.00001);
	printf("a: [%a] [%A] [%.3a] [%a] [%a] [%.0a] [%20a|]\n", 1.0, 255.5, 3.14159, -0.1, 5e-324, 1.5, 2.0);
	printf("inf/nan: [%f] [%F] [%e] [%g] [%5.1f]\n", 1.0 / 0.0, -1.0 / 0.0, 1.0 / 0.0, -1.0 / 0.0, 1.0 / 0.0);
	printf("nan: [%f] [%F] [%e] [%-6g|]\n", NAN, NAN, (double)NAN, (double)NAN);
	printf("float args: [%f] [%.9g]\n", (double)1.1f, (double)(float)(1.0 / 3));

	printf("Lf: [%Lf] [%.25Lf] [%20.10Lf]\n", 3.14159265358979323846264338327950288L, 1.0L / 3, -2.5L);
	printf("Le: [%Le] [%.30Le] [%LE]\n", 1e4000L, 2.0L / 3, 1.2345e-4000L);
	printf("Lg: [%Lg] [%.33Lg] [%#Lg]\n", 1e10L, 0.1L, 1.0L);
	printf("La: [%La] [%.5La] [%LA]\n", 1.0L, 3.14159265358979323846264338327950288L, 0.1L);

	printf("n: abc%n def%n\n", &n1, &n2);
	printf("n1=%d n2=%d\n", n1, n2);

	{
		char buf[64];
		int r = snprintf(buf, sizeof buf, "%s-%d-%.2f-%Lg", "x", 12, 1.005, 2.5L);
		printf("snprintf: %d [%s]\n", r, buf);
		r = snprintf(buf, 8, "%s", "abcdefghijklmnop");
		printf("snprintf truncated: %d [%s] strlen=%zu\n", r, buf, strlen(buf));
		r = snprintf(NULL, 0, "%lld", ll);
		printf("snprintf null: %d\n", r);
	}
	/* positional arguments */
	printf("pos: [%2$s %3$s] [%1$*4$d]\n", 42, "hello", "world", 6);
	fprintf(stdout, "%s\n", "done");
	return 0;
}
