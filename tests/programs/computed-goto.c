// POPCORN-MIGRATE-EVERY: 5
// POPCORN-FLAGS: -fpopcorn-loop-period=8
/* Labels as values, the dispatch loop of most interpreters: a threaded
 * bytecode machine whose table holds label addresses, a second one whose
 * table holds label offsets from a base label (the form shared libraries
 * use), and a label address kept in a local across calls.  The thread
 * moves inside the loops, so a label taken on one ISA is used on the other. */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, ADD, MUL, DUP, SWAP, JNZ, DEC, PRINT, HALT };

static long report(long v)
{
	printf("  value %ld\n", v);
	return v;
}

/* The machine's instructions; NEXT is the dispatch. */
#define INSTRUCTIONS                                                           \
push:	*sp++ = *pc++; NEXT;                                                   \
add:	sp--; sp[-1] += sp[0]; NEXT;                                           \
mul:	sp--; sp[-1] *= sp[0]; NEXT;                                           \
dup:	sp[0] = sp[-1]; sp++; NEXT;                                            \
swap:	{ long t = sp[-1]; sp[-1] = sp[-2]; sp[-2] = t; } NEXT;                \
jnz:	if (sp[-1]) { pc = code + *pc; } else pc++; NEXT;                      \
dec:	sp[-1]--; NEXT;                                                        \
print:	report(sp[-1]); NEXT;                                                  \
halt:	return sp[-1];

static long run_direct(const int *code)
{
	static void *const dispatch[] = {&&push, &&add, &&mul, &&dup, &&swap, &&jnz, &&dec, &&print, &&halt};
	long stack[16], *sp = stack;
	const int *pc = code;
#define NEXT goto *dispatch[*pc++]
	NEXT;
	INSTRUCTIONS
#undef NEXT
}

static long run_relative(const int *code)
{
	static const int offset[] = {&&push - &&push, &&add - &&push, &&mul - &&push, &&dup - &&push,
				     &&swap - &&push, &&jnz - &&push, &&dec - &&push,
				     &&print - &&push, &&halt - &&push};
	long stack[16], *sp = stack;
	const int *pc = code;
#define NEXT goto *(&&push + offset[*pc++])
	NEXT;
	INSTRUCTIONS
#undef NEXT
}

/* A label chosen before calls and jumped to after them. */
static int classify(int n)
{
	void *where = n < 0 ? &&negative : n == 0 ? &&zero : &&positive;
	char *scratch = malloc(16);
	snprintf(scratch, 16, "%d", n);
	printf("classify %s: ", scratch);
	free(scratch);
	goto *where;
negative:
	puts("negative");
	return -1;
zero:
	puts("zero");
	return 0;
positive:
	puts("positive");
	return 1;
}

int main(void)
{
	/* Twelve rounds: print the counter, fold it into the accumulator. */
	static const int program[] = {
		PUSH, 1, PUSH, 12,
		/* 4: loop, stack: acc n */
		SWAP, PUSH, 3, MUL, PUSH, 0, ADD, SWAP, DUP, PUSH, 0, ADD,
		SWAP, DUP, PRINT, SWAP, ADD, SWAP, DEC, JNZ, 4,
		SWAP, PRINT, HALT};
	long a = run_direct(program), b = run_relative(program);
	printf("direct %ld, relative %ld\n", a, b);
	int sum = 0;
	for (int i = -3; i <= 3; i++)
		sum += classify(i);
	printf("sum %d\n", sum);
	return a == b ? 0 : 1;
}
