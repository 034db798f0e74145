/* interp: a small stack-machine interpreter dispatching through a table of
 * function pointers (one indirect call per instruction).  The program
 * computes, for every i < N, the Collatz step count of i and a polynomial
 * hash, and sums them.  Size argument: N. */
#include <stdio.h>
#include <stdlib.h>

enum op { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, DIV2, LT, EQ, JZ, JMP, DUP, POP, HALT, NOPS };

struct insn {
  int op;
  long arg;
};

struct vm {
  long stack[64];
  int sp;
  long vars[8];
  int pc;
  int running;
  const struct insn *code;
};

typedef void (*handler)(struct vm *, long);

static void op_push(struct vm *m, long a) { m->stack[m->sp++] = a; }
static void op_load(struct vm *m, long a) { m->stack[m->sp++] = m->vars[a]; }
static void op_store(struct vm *m, long a) { m->vars[a] = m->stack[--m->sp]; }
static void op_add(struct vm *m, long a) { (void)a; m->sp--; m->stack[m->sp - 1] += m->stack[m->sp]; }
static void op_sub(struct vm *m, long a) { (void)a; m->sp--; m->stack[m->sp - 1] -= m->stack[m->sp]; }
static void op_mul(struct vm *m, long a) { (void)a; m->sp--; m->stack[m->sp - 1] *= m->stack[m->sp]; }
static void op_mod(struct vm *m, long a) { (void)a; m->sp--; m->stack[m->sp - 1] %= m->stack[m->sp]; }
static void op_div2(struct vm *m, long a) { (void)a; m->stack[m->sp - 1] >>= 1; }
static void op_lt(struct vm *m, long a) { (void)a; m->sp--; m->stack[m->sp - 1] = m->stack[m->sp - 1] < m->stack[m->sp]; }
static void op_eq(struct vm *m, long a) { (void)a; m->sp--; m->stack[m->sp - 1] = m->stack[m->sp - 1] == m->stack[m->sp]; }
static void op_jz(struct vm *m, long a) { if (m->stack[--m->sp] == 0) m->pc = (int)a; }
static void op_jmp(struct vm *m, long a) { m->pc = (int)a; }
static void op_dup(struct vm *m, long a) { (void)a; m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; }
static void op_pop(struct vm *m, long a) { (void)a; m->sp--; }
static void op_halt(struct vm *m, long a) { (void)a; m->running = 0; }

static const handler table[NOPS] = {op_push, op_load, op_store, op_add, op_sub,
                                    op_mul, op_mod, op_div2, op_lt, op_eq,
                                    op_jz, op_jmp, op_dup, op_pop, op_halt};

static long run(struct vm *m, long *executed)
{
  long count = 0;
  m->pc = 0;
  m->sp = 0;
  m->running = 1;
  while (m->running) {
    const struct insn *in = &m->code[m->pc++];
    table[in->op](m, in->arg);
    count++;
  }
  *executed += count;
  return m->vars[2];
}

/* vars: 0 = i, 1 = x, 2 = total, 3 = steps, 4 = n, 5 = hash */

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 120000;
  /* Assemble the program, patching forward jumps. */
  struct insn code[128];
  int pc = 0;
#define EMIT(o, a) (code[pc].op = (o), code[pc].arg = (a), pc++)
  EMIT(PUSH, 1); EMIT(STORE, 0);            /* i = 1 */
  EMIT(PUSH, 0); EMIT(STORE, 2);            /* total = 0 */
  EMIT(PUSH, 7); EMIT(STORE, 5);            /* hash = 7 */
  int outer = pc;
  EMIT(LOAD, 0); EMIT(LOAD, 4); EMIT(LT, 0);
  int jz_outer = pc; EMIT(JZ, 0);           /* exit when !(i < n) */
  EMIT(LOAD, 0); EMIT(STORE, 1);            /* x = i */
  EMIT(PUSH, 0); EMIT(STORE, 3);            /* steps = 0 */
  int inner = pc;
  EMIT(LOAD, 1); EMIT(PUSH, 1); EMIT(EQ, 0);
  int jz_body = pc; EMIT(JZ, 0);            /* x != 1: body */
  int jmp_done = pc; EMIT(JMP, 0);          /* x == 1: done */
  code[jz_body].arg = pc;
  EMIT(LOAD, 1); EMIT(PUSH, 2); EMIT(MOD, 0);
  int jz_even = pc; EMIT(JZ, 0);
  EMIT(LOAD, 1); EMIT(PUSH, 3); EMIT(MUL, 0); EMIT(PUSH, 1); EMIT(ADD, 0);
  int jmp_store = pc; EMIT(JMP, 0);
  code[jz_even].arg = pc;
  EMIT(LOAD, 1); EMIT(DIV2, 0);
  code[jmp_store].arg = pc;
  EMIT(STORE, 1);                           /* x = new x */
  EMIT(LOAD, 3); EMIT(PUSH, 1); EMIT(ADD, 0); EMIT(STORE, 3); /* steps++ */
  EMIT(JMP, inner);
  code[jmp_done].arg = pc;
  EMIT(LOAD, 2); EMIT(LOAD, 3); EMIT(ADD, 0); EMIT(STORE, 2); /* total += steps */
  EMIT(LOAD, 5); EMIT(PUSH, 31); EMIT(MUL, 0); EMIT(LOAD, 3); EMIT(ADD, 0);
  EMIT(PUSH, 1000000007); EMIT(MOD, 0); EMIT(STORE, 5);      /* hash = (hash*31+steps) % p */
  EMIT(LOAD, 0); EMIT(PUSH, 1); EMIT(ADD, 0); EMIT(STORE, 0); /* i++ */
  EMIT(JMP, outer);
  code[jz_outer].arg = pc;
  EMIT(HALT, 0);
#undef EMIT

  struct vm m = {0};
  m.code = code;
  m.vars[4] = n;
  long executed = 0;
  long total = run(&m, &executed);
  printf("interp n=%ld total=%ld hash=%ld executed=%ld\n", n, total, m.vars[5], executed);
  return 0;
}
