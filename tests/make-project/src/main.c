/* Builds shapes with libshapes.a, sorts them by area and reports them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shapes.h"

static int by_area(const void *a, const void *b)
{
	const struct shape *s = *(struct shape *const *)a, *t = *(struct shape *const *)b;
	double x = shape_area(s), y = shape_area(t);
	if (x != y)
		return (x > y) - (x < y);
	return strcmp(s->name, t->name);
}

int main(int argc, char **argv)
{
	(void)argv;
	struct point tri[] = {{0, 0}, {4, 0}, {0, 3}};
	struct point l_shape[] = {{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 4}, {0, 4}};
	struct shape *shapes[] = {
		circle_new("unit", 0, 0, 1),
		polygon_new("right-tri", 3, tri),
		regular_polygon("square", 4, 2.5),
		circle_new("big-circle", 10, -3, 7.25),
		regular_polygon("hexagon", 6, 1),
		polygon_new("L", 6, l_shape),
		regular_polygon("triangle", 3, 3),
	};
	size_t n = sizeof shapes / sizeof shapes[0];
	report("%zu shapes, argc %d", n, argc);
	qsort(shapes, n, sizeof shapes[0], by_area);
	report_shapes(shapes, n);
	for (size_t i = 0; i < n; i++)
		shape_free(shapes[i]);
	printf("%d report lines\n", report_lines);
	return 0;
}
