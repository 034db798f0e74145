/* Structures passed and returned by value through function pointers, in
 * loops: the classes the two conventions treat differently (three doubles:
 * memory on x86-64, a homogeneous aggregate in registers on aarch64; over
 * 16 bytes: by reference on aarch64).  At -O0 aarch64 kept the address of a
 * native stack object in a spill slot across migration points, where no
 * record described it: the first move to node 1 crashed. */
// POPCORN-MIGRATE-EVERY: 1
#include <stdio.h>
#include <string.h>

struct point { double x, y, z; };
struct pair { float a, b; };
struct tagged { char tag; int count; double weight; };
struct record { char label[40]; long values[6]; struct point at; };

typedef struct point (*point_op)(struct point, struct point);
typedef double (*record_op)(struct pair, struct tagged, struct record);

static struct point sum(struct point a, struct point b) { return (struct point){a.x + b.x, a.y + b.y, a.z + b.z}; }
static struct point product(struct point a, struct point b) { return (struct point){a.x * b.x, a.y * b.y, a.z * b.z}; }
static struct point cross(struct point a, struct point b)
{
	return (struct point){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

static double weigh(struct pair p, struct tagged t, struct record r)
{
	double total = p.a * p.b + t.tag + t.count * t.weight;
	for (int i = 0; i < 6; i++)
		total += r.values[i];
	return total + r.at.x + strlen(r.label);
}

/* Changes its own copy only: the caller's record must not see it. */
static double overwrite(struct pair p, struct tagged t, struct record r)
{
	r.values[0] = 1000;
	return p.a - t.weight + r.values[0] + r.label[0];
}

static const struct { const char *name; point_op op; } point_ops[] = {
	{"sum", sum}, {"cross", cross}, {"product", product}};
static record_op record_ops[] = {weigh, overwrite};

static struct record make_record(int k)
{
	struct record r;
	memset(&r, 0, sizeof r);
	snprintf(r.label, sizeof r.label, "record-%d", k);
	for (int i = 0; i < 6; i++)
		r.values[i] = (long)k * i - 7;
	r.at = (struct point){k, -k, 0.5 * k};
	return r;
}

int main(void)
{
	struct point acc = {1, 2, 3};
	for (int round = 0; round < 4; round++)
		for (unsigned i = 0; i < sizeof point_ops / sizeof *point_ops; i++) {
			struct point p = point_ops[i].op(acc, (struct point){0.5 + round, -1.25 * i, 2.0});
			printf("%d %-7s -> (%.6g, %.6g, %.6g)\n", round, point_ops[i].name, p.x, p.y, p.z);
			acc = sum(acc, product(p, (struct point){0.1, 0.1, 0.1}));
		}
	for (int k = 0; k < 3; k++) {
		struct record r = make_record(k);
		struct pair p = {1.5f * k, 2.25f};
		struct tagged t = {(char)('a' + k), k * 3, k / 7.0};
		for (int j = 0; j < 2; j++)
			printf("record_ops[%d](%d) = %.10f (values[0] still %ld)\n", j, k,
			       record_ops[j](p, t, r), r.values[0]);
	}
	return 0;
}
