/* A small library of shapes: libshapes.a (circle.c, polygon.c). */
#ifndef SHAPES_H
#define SHAPES_H

#include <stddef.h>

enum shape_kind { SHAPE_CIRCLE, SHAPE_POLYGON };

struct point {
	double x, y;
};

struct shape {
	enum shape_kind kind;
	char name[24];
	union {
		struct {
			struct point center;
			double radius;
		} circle;
		struct {
			size_t n;
			struct point *vertices;
		} polygon;
	} u;
};

/* circle.c */
struct shape *circle_new(const char *name, double x, double y, double r);
double circle_area(const struct shape *s);
double circle_perimeter(const struct shape *s);

/* polygon.c */
struct shape *polygon_new(const char *name, size_t n, const struct point *vertices);
struct shape *regular_polygon(const char *name, size_t n, double side);
double polygon_area(const struct shape *s);
double polygon_perimeter(const struct shape *s);

/* either kind */
double shape_area(const struct shape *s);
double shape_perimeter(const struct shape *s);
void shape_free(struct shape *s);

/* report.c */
void report(const char *fmt, ...);
void report_shapes(struct shape **shapes, size_t n);
extern int report_lines;

#endif
