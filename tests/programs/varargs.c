/* Variadic functions defined in the program: every argument class,
 * va_copy, and a va_list passed on to vsnprintf and to a user function. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long sum_ints(int n, ...)
{
	va_list ap;
	long total = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		total += va_arg(ap, int);
	va_end(ap);
	return total;
}

static double sum_doubles(int n, ...)
{
	va_list ap;
	double total = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		total += va_arg(ap, double);
	va_end(ap);
	return total;
}

static long double sum_long_doubles(int n, ...)
{
	va_list ap;
	long double total = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		total += va_arg(ap, long double);
	va_end(ap);
	return total;
}

/* A tiny formatter: i=int l=long long u=unsigned long d=double L=long
 * double s=string p=pointer to int (dereferenced) c=char (promoted) */
static void mixed(const char *types, ...)
{
	va_list ap, again;
	va_start(ap, types);
	va_copy(again, ap);
	for (const char *t = types; *t; t++) {
		switch (*t) {
		case 'i': printf(" i:%d", va_arg(ap, int)); break;
		case 'l': printf(" l:%lld", va_arg(ap, long long)); break;
		case 'u': printf(" u:%lu", va_arg(ap, unsigned long)); break;
		case 'd': printf(" d:%.4f", va_arg(ap, double)); break;
		case 'L': printf(" L:%.20Lf", va_arg(ap, long double)); break;
		case 's': printf(" s:%s", va_arg(ap, const char *)); break;
		case 'p': printf(" p:%d", *va_arg(ap, int *)); break;
		case 'c': printf(" c:%c", (char)va_arg(ap, int)); break;
		}
	}
	printf("\n");
	/* the copy walks the same arguments again */
	int count = 0;
	for (const char *t = types; *t; t++) {
		switch (*t) {
		case 'i': case 'c': (void)va_arg(again, int); break;
		case 'l': (void)va_arg(again, long long); break;
		case 'u': (void)va_arg(again, unsigned long); break;
		case 'd': (void)va_arg(again, double); break;
		case 'L': (void)va_arg(again, long double); break;
		case 's': (void)va_arg(again, const char *); break;
		case 'p': (void)va_arg(again, int *); break;
		}
		count++;
	}
	va_end(again);
	va_end(ap);
	printf("  copy walked %d arguments\n", count);
}

/* a user function that takes a va_list */
static double vaverage(int n, va_list ap)
{
	double total = 0;
	for (int i = 0; i < n; i++)
		total += va_arg(ap, double);
	return n ? total / n : 0;
}

static double average(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	double r = vaverage(n, ap);
	va_end(ap);
	return r;
}

/* a va_list passed to libc, twice via va_copy */
static int format_twice(char *out, size_t size, const char *fmt, ...)
{
	va_list ap, copy;
	va_start(ap, fmt);
	va_copy(copy, ap);
	int n = vsnprintf(out, size, fmt, ap);
	char second[256];
	int m = vsnprintf(second, sizeof second, fmt, copy);
	va_end(copy);
	va_end(ap);
	return n == m && strcmp(out, second) == 0 ? n : -1;
}

static void logf_(const char *level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("[%s] ", level);
	vprintf(fmt, ap);
	va_end(ap);
}

/* many arguments: beyond the registers, onto the stack */
static int64_t many(int n, ...)
{
	va_list ap;
	int64_t h = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		if (i % 3 == 0)
			h = h * 31 + va_arg(ap, int);
		else if (i % 3 == 1)
			h = h * 31 + (int64_t)(va_arg(ap, double) * 10);
		else
			h = h * 31 + va_arg(ap, int64_t);
	}
	va_end(ap);
	return h;
}

int main(void)
{
	int x = 77;
	char buf[256];
	printf("sum_ints %ld %ld %ld\n", sum_ints(0), sum_ints(3, 1, 2, 3),
	       sum_ints(12, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, 1000000));
	printf("sum_doubles %.6f\n", sum_doubles(10, 0.5, 1.5, 2.25, -1.0, 1e3, 3.0, 4.0, 5.0, 6.0, 0.125));
	printf("sum_long_doubles %.30Lf\n", sum_long_doubles(4, 1.0L / 3, 2.0L / 3, 1e-20L, 7.0L));
	mixed("ildLspcu", 42, -123456789012345LL, 3.14159, 2.0L / 3, "text", &x, 'Z', 18446744073709551615UL);
	mixed("LLdidLi", 1.5L, -2.25L, 1e10, 5, 0.001, 1e-5L, -6);
	printf("average %.4f\n", average(5, 1.0, 2.0, 3.0, 4.0, 10.0));
	int n = format_twice(buf, sizeof buf, "%d|%s|%.3f|%lld|%Lg|%c", -5, "str", 2.5, 1LL << 40, 0.75L, 'k');
	printf("format_twice %d [%s]\n", n, buf);
	logf_("info", "%s has %d items costing %.2f\n", "cart", 3, 19.99);
	printf("many %lld\n", (long long)many(15, 1, 2.5, (int64_t)3, 4, 5.5, (int64_t)-6, 7, 8.5,
					      (int64_t)9, 10, 11.5, (int64_t)12, 13, 14.5, (int64_t)1 << 50));
	return 0;
}
