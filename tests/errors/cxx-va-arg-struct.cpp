// va_arg of a class type in C++: refused as in C (the ISAs pass aggregates
// to variadic functions in incompatible ways), which needs the marker the
// compiler looks for to keep its C name.
// EXPECT: va_arg of a struct or union type in function 'first_point(int, ...)'
// EXPECT-LINE: 16 13

#include <cstdarg>

struct Point {
	int x, y;
};

int first_point(int n, ...) {
	va_list ap;
	va_start(ap, n);
	Point p = va_arg(ap, Point);
	va_end(ap);
	return p.x + p.y;
}

int main() {
	return first_point(1, Point{1, 2});
}
