/* The per-ISA half of popcorn's va_arg (see compiler/include/stdarg.h).
 * Compiled natively for each ISA, so va_arg here reads that ISA's va_list.
 * Integers narrower than int and float were promoted by the caller; the
 * value is stored in the caller's object of the requested size (little
 * endian on every supported ISA). */
#include <stdarg.h>
#include <string.h>

enum { VA_INTEGER = 0, VA_FLOAT = 1 };

void __popcorn_va_arg(va_list *ap, int class, unsigned long size, void *out)
{
	if (class == VA_FLOAT) {
		if (size == sizeof(long double)) {
			long double v = va_arg(*ap, long double);
			memcpy(out, &v, size);
		} else if (size == sizeof(double)) {
			double v = va_arg(*ap, double);
			memcpy(out, &v, size);
		} else {
			float v = va_arg(*ap, double);
			memcpy(out, &v, sizeof v);
		}
	} else if (size <= sizeof(int)) {
		int v = va_arg(*ap, int);
		memcpy(out, &v, size);
	} else if (size <= sizeof(long long)) {
		long long v = va_arg(*ap, long long);
		memcpy(out, &v, size);
	} else {
		__int128 v = va_arg(*ap, __int128);
		memcpy(out, &v, size < sizeof v ? size : sizeof v);
	}
}
