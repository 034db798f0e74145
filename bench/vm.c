/* vm: a register-based bytecode interpreter in the manner of Lua's.  One
 * large dispatch function (execute) calls helpers for arithmetic, type
 * checks, allocation and calls; errors unwind with longjmp to the nearest
 * protected call (pcall, a setjmp each); lists are cells of a fixed pool
 * reclaimed by a mark-and-sweep collector.  The script calls, N times, a
 * function that builds a list, sums it recursively and divides, inside a
 * pcall: some calls fail (division by zero, a type error, an explicit
 * error, a nested protected call), as scripts do.  Prints the result, the
 * errors caught and the collections.  Size argument: N. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

enum tag { NIL, INT, PAIR };

struct cell;
typedef struct {
  enum tag tag;
  union {
    long i;
    struct cell *p;
  } u;
} value;

struct cell {
  value car, cdr;
  struct cell *next_free;
  int marked;
};

enum op {
  LOADI, LOADNIL, MOVE, ADD, SUB, MUL, DIV, MOD, ADDI, LT, EQI, JMP, JMPNOT,
  CONS, CAR, CDR, ISNIL, CALL, PCALL, ERROR, RET
};

struct insn {
  unsigned char op, a, b, c;
  int k;
};

struct proto {
  const struct insn *code;
  int nregs;
};

enum { STACK = 4096, CELLS = 1024, MAX_DEPTH = 200 };
enum error_code { E_DIVZERO = 1, E_TYPE, E_USER, E_DEPTH, E_MEMORY };

/* A protected call's landing place; they chain, innermost first. */
struct handler {
  jmp_buf jb;
  struct handler *prev;
};

struct vm {
  value stack[STACK];
  int top; /* one past the current frame's registers: the collector's roots */
  int depth;
  struct handler *handler;
  struct cell cells[CELLS];
  struct cell *free_list;
  long collections, errors, allocations;
  const struct proto *protos;
};

static value int_value(long i) { value v = {INT, {.i = i}}; return v; }
static value nil_value(void) { value v = {NIL, {.i = 0}}; return v; }

static void vm_error(struct vm *vm, enum error_code code)
{
  if (!vm->handler) {
    fprintf(stderr, "vm: unprotected error %d\n", code);
    exit(1);
  }
  longjmp(vm->handler->jb, code);
}

static long check_int(struct vm *vm, value v)
{
  if (v.tag != INT)
    vm_error(vm, E_TYPE);
  return v.u.i;
}

static struct cell *check_pair(struct vm *vm, value v)
{
  if (v.tag != PAIR)
    vm_error(vm, E_TYPE);
  return v.u.p;
}

static void mark(value v)
{
  /* Iterative along cdr, recursive along car: lists are long, trees shallow. */
  while (v.tag == PAIR && !v.u.p->marked) {
    v.u.p->marked = 1;
    mark(v.u.p->car);
    v = v.u.p->cdr;
  }
}

static void collect(struct vm *vm)
{
  for (int i = 0; i < vm->top; i++)
    mark(vm->stack[i]);
  vm->free_list = NULL;
  for (int i = CELLS - 1; i >= 0; i--) {
    struct cell *c = &vm->cells[i];
    if (c->marked) {
      c->marked = 0;
    } else {
      c->next_free = vm->free_list;
      vm->free_list = c;
    }
  }
  vm->collections++;
}

static value new_pair(struct vm *vm, value car, value cdr)
{
  if (!vm->free_list) {
    collect(vm);
    if (!vm->free_list)
      vm_error(vm, E_MEMORY);
  }
  struct cell *c = vm->free_list;
  vm->free_list = c->next_free;
  c->car = car;
  c->cdr = cdr;
  vm->allocations++;
  value v = {PAIR, {.p = c}};
  return v;
}

static long arith(struct vm *vm, enum op op, value x, value y)
{
  long a = check_int(vm, x), b = check_int(vm, y);
  switch (op) {
  case ADD: return a + b;
  case SUB: return a - b;
  case MUL: return a * b;
  case DIV:
    if (b == 0)
      vm_error(vm, E_DIVZERO);
    return a / b;
  default:
    if (b == 0)
      vm_error(vm, E_DIVZERO);
    return a % b;
  }
}

static value execute(struct vm *vm, int proto, int base);

/* Calls PROTO with its arguments already in the registers from BASE on. */
static value call(struct vm *vm, int proto, int base)
{
  if (vm->depth == MAX_DEPTH || base + vm->protos[proto].nregs > STACK)
    vm_error(vm, E_DEPTH);
  int saved_top = vm->top;
  vm->depth++;
  vm->top = base + vm->protos[proto].nregs;
  value result = execute(vm, proto, base);
  vm->top = saved_top;
  vm->depth--;
  return result;
}

/* Lua's pcall: the callee's error comes back as a negative error code. */
static value protected_call(struct vm *vm, int proto, int base)
{
  struct handler h;
  int saved_top = vm->top, saved_depth = vm->depth;
  h.prev = vm->handler;
  vm->handler = &h;
  int code = setjmp(h.jb);
  if (code == 0) {
    value result = call(vm, proto, base);
    vm->handler = h.prev;
    return result;
  }
  vm->handler = h.prev;
  vm->top = saved_top;
  vm->depth = saved_depth;
  vm->errors++;
  return int_value(-code);
}

static value execute(struct vm *vm, int proto, int base)
{
  const struct insn *pc = vm->protos[proto].code;
  value *r = &vm->stack[base];
  for (;;) {
    const struct insn *in = pc++;
    switch ((enum op)in->op) {
    case LOADI: r[in->a] = int_value(in->k); break;
    case LOADNIL: r[in->a] = nil_value(); break;
    case MOVE: r[in->a] = r[in->b]; break;
    case ADD: case SUB: case MUL: case DIV: case MOD:
      r[in->a] = int_value(arith(vm, (enum op)in->op, r[in->b], r[in->c]));
      break;
    case ADDI: r[in->a] = int_value(check_int(vm, r[in->b]) + in->k); break;
    case LT: r[in->a] = int_value(check_int(vm, r[in->b]) < check_int(vm, r[in->c])); break;
    case EQI: r[in->a] = int_value(check_int(vm, r[in->b]) == in->k); break;
    case JMP: pc += in->k; break;
    case JMPNOT:
      if (r[in->a].tag == NIL || (r[in->a].tag == INT && r[in->a].u.i == 0))
        pc += in->k;
      break;
    case CONS: r[in->a] = new_pair(vm, r[in->b], r[in->c]); break;
    case CAR: r[in->a] = check_pair(vm, r[in->b])->car; break;
    case CDR: r[in->a] = check_pair(vm, r[in->b])->cdr; break;
    case ISNIL: r[in->a] = int_value(r[in->b].tag == NIL); break;
    case CALL: r[in->a] = call(vm, in->b, base + in->a + 1); break;
    case PCALL: r[in->a] = protected_call(vm, in->b, base + in->a + 1); break;
    case ERROR: vm_error(vm, E_USER); break;
    case RET: return r[in->a];
    }
  }
}

#define I(op, a, b, c, k) {op, a, b, c, k}

/* main(n): sum of pcall(work, i) for i < n, modulo 1000003. */
static const struct insn main_code[] = {
  I(LOADI, 1, 0, 0, 0),       /* r1 = i */
  I(LOADI, 2, 0, 0, 0),       /* r2 = acc */
  I(LOADI, 3, 0, 0, 1000003), /* r3 = modulus */
  I(LT, 4, 1, 0, 0),          /* loop: r4 = i < n */
  I(JMPNOT, 4, 0, 0, 6),
  I(MOVE, 6, 1, 0, 0),        /* the argument, above the callee's slot */
  I(PCALL, 5, 1, 0, 0),       /* r5 = pcall(work, i) */
  I(ADD, 2, 2, 5, 0),
  I(MOD, 2, 2, 3, 0),
  I(ADDI, 1, 1, 0, 1),
  I(JMP, 0, 0, 0, -8),
  I(RET, 2, 0, 0, 0),
};

/* work(i): s = sum(build(i % 13 + 3, i)); fails on some i; s / (i % 5). */
static const struct insn work_code[] = {
  I(LOADI, 1, 0, 0, 13),
  I(MOD, 4, 0, 1, 0),
  I(ADDI, 4, 4, 0, 3),        /* r4 = length */
  I(MOVE, 5, 0, 0, 0),        /* r5 = seed */
  I(CALL, 3, 2, 0, 0),        /* r3 = build(length, seed) */
  I(MOVE, 6, 3, 0, 0),
  I(CALL, 5, 3, 0, 0),        /* r5 = sum(list) */
  I(LOADI, 1, 0, 0, 7),
  I(MOD, 2, 0, 1, 0),
  I(EQI, 2, 2, 0, 3),
  I(JMPNOT, 2, 0, 0, 1),
  I(ERROR, 0, 0, 0, 0),       /* i % 7 == 3: error() */
  I(LOADI, 1, 0, 0, 11),
  I(MOD, 2, 0, 1, 0),
  I(EQI, 2, 2, 0, 0),
  I(JMPNOT, 2, 0, 0, 1),
  I(CAR, 2, 5, 0, 0),         /* i % 11 == 0: car of a number */
  I(LOADI, 1, 0, 0, 5),
  I(MOD, 9, 0, 1, 0),
  I(MOVE, 8, 5, 0, 0),
  I(PCALL, 7, 4, 0, 0),       /* r7 = pcall(divide, s, i % 5) */
  I(ADD, 7, 7, 5, 0),
  I(RET, 7, 0, 0, 0),
};

/* build(n, seed): a list of n numbers. */
static const struct insn build_code[] = {
  I(LOADNIL, 2, 0, 0, 0),     /* r2 = the list */
  I(LOADI, 4, 0, 0, 31),
  I(EQI, 5, 0, 0, 0),         /* loop: n == 0? */
  I(JMPNOT, 5, 0, 0, 1),
  I(RET, 2, 0, 0, 0),
  I(MUL, 1, 1, 4, 0),
  I(ADDI, 1, 1, 0, 7),
  I(LOADI, 6, 0, 0, 65521),
  I(MOD, 1, 1, 6, 0),         /* seed = (seed * 31 + 7) % 65521 */
  I(CONS, 2, 1, 2, 0),
  I(ADDI, 0, 0, 0, -1),
  I(JMP, 0, 0, 0, -10),
};

/* sum(list): recursive. */
static const struct insn sum_code[] = {
  I(ISNIL, 1, 0, 0, 0),
  I(JMPNOT, 1, 0, 0, 2),
  I(LOADI, 1, 0, 0, 0),
  I(RET, 1, 0, 0, 0),
  I(CDR, 3, 0, 0, 0),
  I(CALL, 2, 3, 0, 0),        /* r2 = sum(cdr) */
  I(CAR, 1, 0, 0, 0),
  I(ADD, 1, 1, 2, 0),
  I(RET, 1, 0, 0, 0),
};

/* divide(a, b) */
static const struct insn divide_code[] = {
  I(DIV, 2, 0, 1, 0),
  I(RET, 2, 0, 0, 0),
};

static const struct proto protos[] = {
  {main_code, 7}, {work_code, 10}, {build_code, 7}, {sum_code, 4}, {divide_code, 3},
};

static struct vm machine;

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 1500000;
  struct vm *vm = &machine;
  vm->protos = protos;
  collect(vm); /* every cell free */
  vm->collections = 0;
  vm->stack[0] = int_value(n);
  vm->top = protos[0].nregs;
  value result = execute(vm, 0, 0);
  printf("vm: n %ld result %ld errors %ld allocations %ld collections %ld\n", n,
         check_int(vm, result), vm->errors, vm->allocations, vm->collections);
  return 0;
}
