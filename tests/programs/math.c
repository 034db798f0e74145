/* libm in double and long double (binary128 on every ISA here). */
// POPCORN-FLAGS: -lm
#include <float.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
	const double xs[] = {0.5, 1.0, 2.0, 10.0, 123.456};
	for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
		double x = xs[i];
		printf("x=%g sqrt %.17g exp %.17g log %.17g pow %.17g sin %.17g cos %.17g atan2 %.17g\n", x,
		       sqrt(x), exp(x), log(x), pow(x, 1.0 / 3), sin(x), cos(x), atan2(x, 3.0));
	}
	printf("tan %.17g asin %.17g acos %.17g sinh %.17g tanh %.17g log10 %.17g log2 %.17g cbrt %.17g\n",
	       tan(0.7), asin(0.3), acos(-0.2), sinh(1.5), tanh(-0.8), log10(12345.0), log2(1000.0), cbrt(-27.5));
	printf("floor %g ceil %g round %g trunc %g rint %g fmod %g remainder %g hypot %.17g\n", floor(-2.5),
	       ceil(-2.5), round(-2.5), trunc(-2.7), rint(2.5), fmod(10.5, 3.0), remainder(10.5, 3.0), hypot(3e200, 4e200));
	int e;
	double m = frexp(1234.5, &e);
	printf("frexp %.17g %d ldexp %.17g modf", m, e, ldexp(0.75, 70));
	double ip, fp = modf(-3.75, &ip);
	printf(" %g %g\n", ip, fp);
	printf("fma %.17g copysign %g nextafter %.17g expm1 %.17g log1p %.17g erf %.17g tgamma %.17g lgamma %.17g\n",
	       fma(0.1, 10.0, -1.0), copysign(3.0, -0.0), nextafter(1.0, 2.0), expm1(1e-10), log1p(1e-10), erf(0.5),
	       tgamma(5.5), lgamma(100.0));
	printf("float: sqrtf %.9g expf %.9g logf %.9g powf %.9g sinf %.9g\n", (double)sqrtf(2.0f), (double)expf(1.0f),
	       (double)logf(10.0f), (double)powf(2.0f, 0.5f), (double)sinf(1.0f));
	printf("special: sqrt(-1) isnan %d log(0) %g exp(1000) %g pow(0,0) %g isinf %d\n", isnan(sqrt(-1.0)), log(0.0),
	       exp(1000.0), pow(0.0, 0.0), isinf(-HUGE_VAL));
	printf("classify %d %d %d %d %d signbit %d\n", fpclassify(0.0) == FP_ZERO, fpclassify(1.0) == FP_NORMAL,
	       fpclassify(DBL_MIN / 4) == FP_SUBNORMAL, fpclassify(INFINITY) == FP_INFINITE, fpclassify(NAN) == FP_NAN,
	       signbit(-0.0) != 0);

	printf("LDBL_MANT_DIG %d LDBL_MAX_EXP %d sizeof %zu\n", LDBL_MANT_DIG, LDBL_MAX_EXP, sizeof(long double));
	const long double ls[] = {0.5L, 2.0L, 3.0L, 1e100L};
	for (unsigned i = 0; i < sizeof ls / sizeof ls[0]; i++) {
		long double x = ls[i];
		printf("x=%Lg sqrtl %.30Lg\n", x, sqrtl(x));
		printf("  expl %.30Lg logl %.30Lg\n", expl(x > 100 ? 100 : x), logl(x));
		printf("  powl %.30Lg\n", powl(x, 1.0L / 3));
	}
	printf("sinl %.30Lg cosl %.30Lg\n", sinl(1.0L), cosl(1.0L));
	printf("fabsl %.30Lg floorl %.30Lg fmodl %.30Lg\n", fabsl(-2.25L), floorl(-7.5L), fmodl(100.0L, 7.25L));
	long double third = 1.0L / 3;
	printf("1/3 %.36Lg\n3*(1/3)-1 %.5Lg\n", third, 3 * third - 1);
	printf("LDBL_EPSILON %.10Lg LDBL_MAX %.10Lg LDBL_MIN %.10Lg\n", LDBL_EPSILON, LDBL_MAX, LDBL_MIN);
	long double acc = 0;
	for (int i = 1; i <= 1000; i++)
		acc += 1.0L / ((long double)i * i);
	printf("basel(1000) %.33Lg\n", acc);
	return 0;
}
