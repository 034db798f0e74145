/* The libc functions whose arguments or result the aarch64 convention (the
 * program's IR) and x86-64 musl's own pass in different places
 * (popcorn-llc's LibcCallRules.def): the complex float and complex long
 * double functions, and 16-bit integer arguments that x86-64 musl may read
 * as extended to 32 bits by the caller (this build's musl extends them
 * again: tests/abi/libc-call-extension.ll checks the calls).  Each result
 * is printed exactly. */
// POPCORN-MIGRATE-EVERY: 1
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <complex.h>
#include <spawn.h>
#include <stdio.h>
#include <uchar.h>

static volatile unsigned noisy = 0x5a5a0000; /* high bits a caller may leave */

/* Each result printed by a call of its own: a migration point between the
 * libc calls, so they run on every ISA. */
__attribute__((noinline)) static void show_float(const char *name, float complex z)
{
	printf("%-7s %a %a\n", name, crealf(z), cimagf(z));
}

__attribute__((noinline)) static void show_long(const char *name, long double complex z)
{
	printf("%-7s %La %La\n", name, creall(z), cimagl(z));
}

static void complex_floats(float complex z, float complex w)
{
	printf("cabsf   %a\ncargf   %a\ncrealf  %a\ncimagf  %a\n", cabsf(z), cargf(z), crealf(z), cimagf(z));
	show_float("cacosf", cacosf(z)); show_float("cacoshf", cacoshf(z));
	show_float("casinf", casinf(z)); show_float("casinhf", casinhf(z));
	show_float("catanf", catanf(z)); show_float("catanhf", catanhf(z));
	show_float("ccosf", ccosf(z)); show_float("ccoshf", ccoshf(z));
	show_float("csinf", csinf(z)); show_float("csinhf", csinhf(z));
	show_float("ctanf", ctanf(z)); show_float("ctanhf", ctanhf(z));
	show_float("cexpf", cexpf(z)); show_float("clogf", clogf(z));
	show_float("conjf", conjf(z)); show_float("cprojf", cprojf(z));
	show_float("csqrtf", csqrtf(z)); show_float("cpowf", cpowf(z, w));
}

static void complex_long_doubles(long double complex z, long double complex w)
{
	printf("cabsl   %La\ncargl   %La\ncreall  %La\ncimagl  %La\n", cabsl(z), cargl(z), creall(z), cimagl(z));
	show_long("cacosl", cacosl(z)); show_long("cacoshl", cacoshl(z));
	show_long("casinl", casinl(z)); show_long("casinhl", casinhl(z));
	show_long("catanl", catanl(z)); show_long("catanhl", catanhl(z));
	show_long("ccosl", ccosl(z)); show_long("ccoshl", ccoshl(z));
	show_long("csinl", csinl(z)); show_long("csinhl", csinhl(z));
	show_long("ctanl", ctanl(z)); show_long("ctanhl", ctanhl(z));
	show_long("cexpl", cexpl(z)); show_long("clogl", clogl(z));
	show_long("conjl", conjl(z)); show_long("cprojl", cprojl(z));
	show_long("csqrtl", csqrtl(z)); show_long("cpowl", cpowl(z, w));
}

/* Multiplication and division: clang calls __mulsc3 and its kin of the
 * builtins library (compiled natively too) for every division, and for a
 * product whose quick formula gives NaN, as (inf, NaN) makes it. */
__attribute__((noinline)) static void complex_arithmetic(float complex z, long double complex lz,
                                                          float complex odd,
                                                          long double complex lodd)
{
	float complex w = CMPLXF(1.5f, 2.0f);
	long double complex lw = CMPLXL(-0.5L, 3.0L);
	show_float("z * w", z * w);
	show_float("w / z", w / z);
	show_float("odd * w", odd * w);
	show_long("lz * lw", lz * lw);
	show_long("lw / lz", lw / lz);
	show_long("lodd*lw", lodd * lw);
}

__attribute__((noinline)) static void narrow_integers(void)
{
	unsigned n = noisy;
	printf("htons %#x ntohs %#x\n", htons((uint16_t)(n | 0x1234)), ntohs((uint16_t)(n | 0xabcd)));
	char out[8];
	mbstate_t state = {0};
	printf("c16rtomb %zd\n", c16rtomb(out, (char16_t)(n | 'A'), &state));
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	printf("posix_spawnattr_setflags %d\n", posix_spawnattr_setflags(&attr, (short)(n | POSIX_SPAWN_SETSIGMASK)));
	short flags = 0;
	posix_spawnattr_getflags(&attr, &flags);
	printf("flags %#x\n", flags);
	posix_spawnattr_destroy(&attr);
}

int main(void)
{
	volatile float re = 0.75f, im = -1.25f;
	volatile long double lre = 0.75L, lim = -1.25L;
	complex_floats(CMPLXF(re, im), CMPLXF(im, re));
	complex_long_doubles(CMPLXL(lre, lim), CMPLXL(lim, lre));
	volatile float inf = __builtin_inff(), nan = __builtin_nanf("");
	complex_arithmetic(CMPLXF(re, im), CMPLXL(lre, lim), CMPLXF(inf, nan), CMPLXL(inf, nan));
	narrow_integers();
	return 0;
}
