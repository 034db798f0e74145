#include <stdarg.h>
#include <stdio.h>
#include "shapes.h"

int report_lines;

void report(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	printf("%3d| %s\n", ++report_lines, line);
}

void report_shapes(struct shape **shapes, size_t n)
{
	double total = 0;
	for (size_t i = 0; i < n; i++) {
		double a = shape_area(shapes[i]);
		total += a;
		report("%-12s %-8s area %12.6f perimeter %10.4f", shapes[i]->name,
		       shapes[i]->kind == SHAPE_CIRCLE ? "circle" : "polygon", a, shape_perimeter(shapes[i]));
	}
	report("total area %.6f over %zu shapes", total, n);
}
