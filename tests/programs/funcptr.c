// POPCORN-MIGRATE-EVERY: 1
/* Function pointers: tables, arguments, returned pointers, pointers in
 * global data and in structs, callbacks through libc (atexit). */
#include <stdio.h>
#include <stdlib.h>

typedef long (*binop)(long, long);
typedef double (*unop)(double);

static long add(long a, long b) { return a + b; }
static long sub(long a, long b) { return a - b; }
static long mul(long a, long b) { return a * b; }
static long divi(long a, long b) { return b ? a / b : 0; }
static long mod(long a, long b) { return b ? a % b : 0; }

static const struct {
	char symbol;
	binop fn;
} operators[] = {{'+', add}, {'-', sub}, {'*', mul}, {'/', divi}, {'%', mod}};

static double twice(double x) { return 2 * x; }
static double square(double x) { return x * x; }
static double negate(double x) { return -x; }

/* pointers stored in writable globals, changed at run time */
binop current_op = add;
unop pipeline[4] = {twice, square, negate, NULL};

static binop lookup(char symbol)
{
	for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
		if (operators[i].symbol == symbol)
			return operators[i].fn;
	return NULL;
}

static long fold(const long *v, int n, binop f, long init)
{
	long acc = init;
	for (int i = 0; i < n; i++)
		acc = f(acc, v[i]);
	return acc;
}

static double apply_all(double x, unop *fs)
{
	for (; *fs; fs++)
		x = (*fs)(x);
	return x;
}

/* a function returning a pointer to a function */
static unop choose(int which)
{
	static const unop table[] = {twice, square, negate};
	return table[which % 3];
}

struct visitor {
	const char *name;
	void (*visit)(struct visitor *self, int value);
	long total;
};

static void visit_sum(struct visitor *self, int value) { self->total += value; }
static void visit_max(struct visitor *self, int value)
{
	if (value > self->total)
		self->total = value;
}
static void visit_count_odd(struct visitor *self, int value) { self->total += value & 1; }

static void walk(const int *v, int n, struct visitor *vis)
{
	for (int i = 0; i < n; i++)
		vis->visit(vis, v[i]);
}

static void bye1(void) { printf("atexit handler 1\n"); }
static void bye2(void) { printf("atexit handler 2 (runs first)\n"); }

/* state machine driven by a table of function pointers */
typedef int (*state_fn)(int c);
static int st_start(int c);
static int st_number(int c);
static int st_word(int c);
static const state_fn states[] = {st_start, st_number, st_word};
static int numbers_seen, words_seen;
static int st_start(int c)
{
	if (c >= '0' && c <= '9') { numbers_seen++; return 1; }
	if (c >= 'a' && c <= 'z') { words_seen++; return 2; }
	return 0;
}
static int st_number(int c) { return (c >= '0' && c <= '9') ? 1 : st_start(c); }
static int st_word(int c) { return (c >= 'a' && c <= 'z') ? 2 : st_start(c); }

int main(void)
{
	long v[] = {3, 9, 27, 4, 5};
	const char *exprs = "+-*/%";
	for (const char *e = exprs; *e; e++)
		printf("fold %c: %ld\n", *e, fold(v, 5, lookup(*e), *e == '*' || *e == '/' ? 100000 : 1000));
	printf("current_op(6,7) = %ld\n", current_op(6, 7));
	current_op = lookup('*');
	printf("current_op(6,7) = %ld\n", current_op(6, 7));
	printf("pipeline(3) = %g\n", apply_all(3, pipeline));
	pipeline[1] = negate;
	pipeline[2] = choose(4);
	printf("pipeline(3) = %g\n", apply_all(3, pipeline));
	printf("choose(1)(choose(0)(5)) = %g\n", choose(1)(choose(0)(5)));
	printf("same function: %d %d\n", choose(3) == twice, lookup('+') == add);

	int data[] = {5, -2, 17, 8, 3, 11, -40};
	struct visitor visitors[] = {{"sum", visit_sum, 0}, {"max", visit_max, -1000}, {"odd", visit_count_odd, 0}};
	for (int i = 0; i < 3; i++) {
		walk(data, 7, &visitors[i]);
		printf("visitor %s: %ld\n", visitors[i].name, visitors[i].total);
	}
	const char *text = "abc 123 de 4 f 56789 xyz";
	int s = 0;
	for (const char *c = text; *c; c++)
		s = states[s](*c);
	printf("numbers %d words %d\n", numbers_seen, words_seen);
	atexit(bye1);
	atexit(bye2);
	printf("main returns\n");
	return 0;
}
