/* va_arg of a struct type: the ISAs pass aggregates to variadic functions
 * in incompatible ways.  The line of the function is acceptable. */
// EXPECT: va_arg of a struct or union type in function 'first_point'
// EXPECT-LINE: 16 12

#include <stdarg.h>

struct point {
	int x, y;
};

int first_point(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	struct point p = va_arg(ap, struct point);
	va_end(ap);
	return p.x + p.y;
}

int main(void)
{
	struct point p = {1, 2};
	return first_point(1, p);
}
