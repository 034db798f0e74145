/* Integer and floating-point edge cases: __int128, division and remainder
 * signs, shifts, overflow with unsigned wrap-around, conversions. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

static void print_u128(const char *label, u128 v)
{
	char buf[48], *p = buf + sizeof buf - 1;
	*p = 0;
	do {
		*--p = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	printf("%s %s\n", label, p);
}

static void print_i128(const char *label, i128 v)
{
	if (v < 0) {
		char l[64];
		snprintf(l, sizeof l, "%s -", label);
		print_u128(l, -(u128)v);
	} else {
		print_u128(label, (u128)v);
	}
}

/* opaque values so that the compiler cannot fold everything */
static volatile int vi[] = {7, -7, 2, -2, 0, INT_MIN, INT_MAX, -1};
static volatile long long vll = -1234567890123456789LL;
static volatile double vd[] = {2.5, -2.5, 1e19, -1e19, 3.99999, -0.0, 4294967296.5};
static volatile unsigned vu = 0x80000001u;
static volatile double fa = 0.1, fb = 10.0, fc = -1.0;

int main(void)
{
	u128 fact = 1;
	for (int i = 1; i <= 34; i++)
		fact *= (u128)i;
	print_u128("34! =", fact);
	i128 a = (i128)vll * 1000000007LL * 97;
	print_i128("a =", a);
	print_i128("a / 12345678901 =", a / 12345678901LL);
	print_i128("a % 12345678901 =", a % 12345678901LL);
	print_u128("max u128 =", ~(u128)0);
	print_u128("max >> 65 =", ~(u128)0 >> 65);
	u128 sh = (u128)1 << 100 | (u128)vu;
	printf("hi %016llx lo %016llx\n", (unsigned long long)(sh >> 64), (unsigned long long)sh);
	print_u128("mul hi parts", ((u128)0xffffffffffffffffULL * 0xfffffffffffffff1ULL) >> 64);

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			printf("%d/%d=%d %d%%%d=%d%s", vi[i], vi[j], vi[i] / vi[j], vi[i], vi[j], vi[i] % vi[j],
			       j == 3 ? "\n" : "  ");
	printf("INT_MAX+1 (unsigned) %u, INT_MIN/1 %d, -INT_MAX-1 == INT_MIN %d\n", (unsigned)vi[6] + 1u, vi[5] / 1,
	       -vi[6] - 1 == vi[5]);
	printf("lldiv %lld %lld\n", vll / 1000, vll % 1000);
	printf("unsigned wrap %u %u %llu\n", 0u - 1u, vu * 3u, (unsigned long long)vll * 3ULL);

	printf("shifts:");
	for (int s = 0; s < 32; s += 7)
		printf(" [%d: %x %x %d]", s, vu << s, vu >> s, (int)vu >> s);
	printf("\n");
	printf("ll shifts %llx %llx %lld\n", (unsigned long long)vll << 13, (unsigned long long)vll >> 13, vll >> 13);
	printf("rotate %08x\n", (vu << 5) | (vu >> 27));
	printf("popcount %d clz %d ctz %d bswap %08x %016llx\n", __builtin_popcount(vu), __builtin_clz(vu >> 4),
	       __builtin_ctz(vu << 3), __builtin_bswap32(vu), (unsigned long long)__builtin_bswap64((uint64_t)vll));

	printf("int8 %d %d uint8 %u int16 %d\n", (int8_t)(vi[6]), (int8_t)200, (uint8_t)-1, (int16_t)40000);
	for (int i = 0; i < 7; i++)
		printf("d=%g (int) %d (long long) %lld (unsigned) %u\n", vd[i], (vd[i] > -2147483649.0 && vd[i] < 2147483648.0) ? (int)vd[i] : 0,
		       (vd[i] > -9.2e18 && vd[i] < 9.2e18) ? (long long)vd[i] : 0LL,
		       (vd[i] >= 0 && vd[i] < 4294967296.0) ? (unsigned)vd[i] : 0u);
	printf("u64 -> double %.1f %.1f\n", (double)(uint64_t)0xffffffffffffffffULL, (double)(uint64_t)vll);
	printf("double -> u64 %llu\n", (unsigned long long)(uint64_t)vd[2]);
	printf("float rounding %.9g %.9g %.17g\n", (double)(float)0.1, (double)((float)vd[0] / 3.0f), 0.1 + 0.2);
	printf("subnormal %g %g\n", 4.9e-324 * vd[0], 2.2250738585072014e-308 / 4);
	float f = 1.0f;
	int steps = 0;
	while (f + 1.0f != f && steps < 200) {
		f *= 2.0f;
		steps++;
	}
	printf("float steps %d value %.1f\n", steps, (double)f);
	/* a * b + c: rounded twice unless the compiler fuses it into an fma */
	printf("a*b+c %g a*b-c*b %g\n", fa * fb + fc, fa * fb - fc * fb);
	double negzero = vd[5];
	printf("-0.0: %g 1/-0 %g equal %d\n", negzero, 1 / negzero, negzero == 0.0);
	long double ld = (long double)vll * vll;
	printf("long double product %.0Lf\n", ld);
	i128 from_ld = (i128)ld;
	print_i128("(i128) of it", from_ld);
	printf("(long double) u128 max %.6Le\n", (long double)~(u128)0);
	return 0;
}
