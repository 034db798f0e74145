#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shapes.h"

struct shape *polygon_new(const char *name, size_t n, const struct point *vertices)
{
	struct shape *s = calloc(1, sizeof *s);
	s->kind = SHAPE_POLYGON;
	snprintf(s->name, sizeof s->name, "%s", name);
	s->u.polygon.n = n;
	s->u.polygon.vertices = malloc(n * sizeof *vertices);
	memcpy(s->u.polygon.vertices, vertices, n * sizeof *vertices);
	return s;
}

/* vertices on a circle, built with exact steps for n = 3, 4, 6 */
struct shape *regular_polygon(const char *name, size_t n, double side)
{
	struct point *v = malloc(n * sizeof *v);
	double x = 0, y = 0;
	/* walk the sides: direction turns by 360/n degrees each step */
	static const double cos_table[][6] = {
		{1, -0.5, -0.5},
		{1, 0, -1, 0},
		{1, 0.5, -0.5, -1, -0.5, 0.5},
	};
	static const double sin_table[][6] = {
		{0, 0.86602540378443865, -0.86602540378443865},
		{0, 1, 0, -1},
		{0, 0.86602540378443865, 0.86602540378443865, 0, -0.86602540378443865, -0.86602540378443865},
	};
	int row = n == 3 ? 0 : n == 4 ? 1 : 2;
	for (size_t i = 0; i < n; i++) {
		v[i].x = x;
		v[i].y = y;
		x += side * cos_table[row][i];
		y += side * sin_table[row][i];
	}
	struct shape *s = polygon_new(name, n, v);
	free(v);
	return s;
}

double polygon_area(const struct shape *s)
{
	double twice = 0;
	const struct point *v = s->u.polygon.vertices;
	size_t n = s->u.polygon.n;
	for (size_t i = 0; i < n; i++) {
		const struct point *p = &v[i], *q = &v[(i + 1) % n];
		twice += p->x * q->y;
		twice -= q->x * p->y;
	}
	return fabs(twice) / 2;
}

double polygon_perimeter(const struct shape *s)
{
	double total = 0;
	const struct point *v = s->u.polygon.vertices;
	size_t n = s->u.polygon.n;
	for (size_t i = 0; i < n; i++) {
		double dx = v[(i + 1) % n].x - v[i].x, dy = v[(i + 1) % n].y - v[i].y;
		total += sqrt(dx * dx + dy * dy);
	}
	return total;
}
