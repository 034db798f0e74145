/* Structs by value (arguments and results of several sizes), unions,
 * switch statements (jump tables) and computed loops. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct small { int8_t a; int16_t b; };
struct pair { long x, y; };
struct vec3 { double x, y, z; };
struct mixed { float f; int i; double d; char tag[5]; };
struct big { int data[20]; long double scale; };
struct hfa4 { float a, b, c, d; };

static struct small make_small(int a, int b) { return (struct small){(int8_t)a, (int16_t)b}; }
static struct pair swap(struct pair p) { return (struct pair){p.y, p.x}; }
static struct vec3 cross(struct vec3 u, struct vec3 v)
{
	return (struct vec3){u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
}
static struct mixed tweak(struct mixed m, int k)
{
	m.f *= k;
	m.i += k;
	m.d /= k;
	m.tag[0] = (char)('A' + k);
	return m;
}
static struct big scale(struct big b, int k)
{
	for (int i = 0; i < 20; i++)
		b.data[i] *= k;
	b.scale *= k;
	return b;
}
static struct hfa4 hsum(struct hfa4 p, struct hfa4 q)
{
	return (struct hfa4){p.a + q.a, p.b + q.b, p.c + q.c, p.d + q.d};
}
/* many struct arguments: some end up on the stack */
static double total(struct vec3 a, struct pair b, struct vec3 c, struct small d, struct hfa4 e, struct mixed f,
		    struct vec3 g)
{
	return a.x + a.y + a.z + (double)b.x + (double)b.y + c.x + c.y + c.z + d.a + d.b + e.a + e.b + e.c + e.d + f.f +
	       f.i + f.d + g.x + g.y + g.z;
}

static const char *classify(int c)
{
	switch (c) {
	case 0: return "zero";
	case 1: return "one";
	case 2: return "two";
	case 3: return "three";
	case 5: return "five";
	case 8: return "eight";
	case 13: return "thirteen";
	case 21: return "twenty-one";
	case 100: return "hundred";
	case -1: return "minus one";
	default: return "other";
	}
}

static int dense(int c)
{
	switch (c) {
	case 10: return 3;
	case 11: return 1;
	case 12: return 4;
	case 13: return 1;
	case 14: return 5;
	case 15: return 9;
	case 16: return 2;
	case 17: return 6;
	case 18: return 5;
	case 19: return 3;
	default: return -1;
	}
}

union value {
	int64_t i;
	double d;
	char s[8];
};

struct tagged {
	enum { INT, DBL, STR } kind;
	union value v;
};

static void print_tagged(struct tagged t)
{
	switch (t.kind) {
	case INT: printf("int %lld\n", (long long)t.v.i); break;
	case DBL: printf("dbl %.3f\n", t.v.d); break;
	case STR: printf("str %.8s\n", t.v.s); break;
	}
}

int main(void)
{
	struct small s = make_small(-5, 3000);
	printf("small %d %d sizeof %zu\n", s.a, s.b, sizeof s);
	struct pair p = swap((struct pair){1, -2});
	printf("pair %ld %ld\n", p.x, p.y);
	struct vec3 c = cross((struct vec3){1, 2, 3}, (struct vec3){-4, 5, 0.5});
	printf("cross %.3f %.3f %.3f\n", c.x, c.y, c.z);
	struct mixed m = {1.5f, 10, 9.0, "abcd"};
	m = tweak(m, 3);
	printf("mixed %.2f %d %.4f %s sizeof %zu\n", (double)m.f, m.i, m.d, m.tag, sizeof m);
	struct big b;
	for (int i = 0; i < 20; i++)
		b.data[i] = i - 7;
	b.scale = 0.1L;
	struct big b2 = scale(b, 3);
	long sum = 0;
	for (int i = 0; i < 20; i++)
		sum += b2.data[i] * (i + 1);
	printf("big sum %ld scale %.30Lf original %d sizeof %zu\n", sum, b2.scale, b.data[19], sizeof b);
	struct hfa4 h = hsum((struct hfa4){1, 2, 3, 4}, (struct hfa4){0.5f, 0.25f, 0.125f, 8});
	printf("hfa %.3f %.3f %.3f %.3f\n", (double)h.a, (double)h.b, (double)h.c, (double)h.d);
	printf("total %.4f\n", total(c, p, (struct vec3){1, 1, 1}, s, h, m, (struct vec3){0.5, 0.25, 0.125}));

	int fibs[] = {0, 1, 2, 3, 4, 5, 8, 13, 21, 34, 100, -1, -2};
	for (unsigned i = 0; i < sizeof fibs / sizeof fibs[0]; i++)
		printf("%d:%s%s", fibs[i], classify(fibs[i]), i + 1 < sizeof fibs / sizeof fibs[0] ? " " : "\n");
	for (int i = 8; i < 21; i++)
		printf("%d%s", dense(i), i < 20 ? "," : "\n");

	struct tagged ts[3] = {{INT, {.i = -42}}, {DBL, {.d = 6.25}}, {STR, {.s = "union"}}};
	for (int i = 0; i < 3; i++)
		print_tagged(ts[i]);
	struct mixed copy;
	memcpy(&copy, &m, sizeof m);
	printf("memcpy'd struct equal %d\n", memcmp(&copy, &m, sizeof m) == 0);
	struct { struct pair p; struct small s[3]; } nested = {{7, 8}, {{1, 2}, {3, 4}, {5, 6}}};
	printf("nested %ld %d sizeof %zu\n", nested.p.y, nested.s[2].b, sizeof nested);
	return 0;
}
