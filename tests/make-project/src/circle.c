#include <stdio.h>
#include <stdlib.h>
#include "shapes.h"

#define PI 3.14159265358979323846

struct shape *circle_new(const char *name, double x, double y, double r)
{
	struct shape *s = calloc(1, sizeof *s);
	s->kind = SHAPE_CIRCLE;
	snprintf(s->name, sizeof s->name, "%s", name);
	s->u.circle.center.x = x;
	s->u.circle.center.y = y;
	s->u.circle.radius = r;
	return s;
}

double circle_area(const struct shape *s)
{
	return PI * s->u.circle.radius * s->u.circle.radius;
}

double circle_perimeter(const struct shape *s)
{
	return 2 * PI * s->u.circle.radius;
}

/* dispatch through a table of function pointers */
static double (*const area_of[])(const struct shape *) = {circle_area, polygon_area};
static double (*const perimeter_of[])(const struct shape *) = {circle_perimeter, polygon_perimeter};

double shape_area(const struct shape *s)
{
	return area_of[s->kind](s);
}

double shape_perimeter(const struct shape *s)
{
	return perimeter_of[s->kind](s);
}

void shape_free(struct shape *s)
{
	if (s && s->kind == SHAPE_POLYGON)
		free(s->u.polygon.vertices);
	free(s);
}
