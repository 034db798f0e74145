/* db: a small database engine in the manner of SQLite's.  Pages of a pager
 * with a rollback journal hold a B+tree of records keyed by row id; each
 * statement is a program of a register machine run by one large function
 * (execute) whose opcodes call the cursor, record and tree helpers.  A
 * statement runs inside a setjmp: a constraint or check that fails, or a
 * division by zero, longjmps back, and the journal restores every page the
 * statement changed.  The workload inserts N rows in batches (some batches
 * hit a duplicate key and roll back), updates ranges (some fail their
 * check), scans with a filter and an aggregate, deletes ranges and looks
 * rows up.  Prints the rows left, pages, commits, rollbacks and a checksum
 * of every result row.  Size argument: N. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE = 512, MAX_PAGES = 16384, MAX_JOURNAL = 1024, MAX_DEPTH = 10, MAX_CELLS = 160 };
enum { ROOT = 1, LEAF = 1, INTERIOR = 2 };
/* Page header: type (1 byte), cells (2), start of the cell area (2),
 * rightmost child (4); then each cell's offset (2). */
enum { H_TYPE = 0, H_NCELLS = 1, H_CONTENT = 3, H_RIGHT = 5, H_SIZE = 9 };
enum error_code { E_CONSTRAINT = 1, E_CHECK, E_DIVZERO, E_FULL, E_CORRUPT };

struct db {
  unsigned char pages[MAX_PAGES][PAGE];
  unsigned char journaled[MAX_PAGES];
  int npages, npages_at_begin, njournal;
  struct {
    int pgno;
    unsigned char bytes[PAGE];
  } journal[MAX_JOURNAL];
  jmp_buf *on_error;
  long commits, rollbacks;
  unsigned long checksum;
};

static void fail(struct db *db, enum error_code code)
{
  if (!db->on_error) {
    fprintf(stderr, "db: error %d outside a statement\n", code);
    exit(1);
  }
  longjmp(*db->on_error, code);
}

static unsigned get16(const unsigned char *p) { return (unsigned)p[0] << 8 | p[1]; }
static void put16(unsigned char *p, unsigned v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static unsigned get32(const unsigned char *p) { return get16(p) << 16 | get16(p + 2); }
static void put32(unsigned char *p, unsigned v) { put16(p, v >> 16); put16(p + 2, v & 0xffff); }

static int put_varint(unsigned char *p, unsigned long v)
{
  int n = 0;
  do {
    p[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return n;
}

static int get_varint(const unsigned char *p, unsigned long *v)
{
  int n = 0, shift = 0;
  *v = 0;
  do {
    *v |= (unsigned long)(p[n] & 0x7f) << shift;
    shift += 7;
  } while (p[n++] & 0x80);
  return n;
}

/* ---- pager: pages written in a statement are journaled first ---- */

static const unsigned char *page_read(struct db *db, unsigned pgno)
{
  if (pgno == 0 || pgno >= (unsigned)db->npages)
    fail(db, E_CORRUPT);
  return db->pages[pgno];
}

static unsigned char *page_write(struct db *db, unsigned pgno)
{
  page_read(db, pgno);
  if (!db->journaled[pgno]) {
    if (db->njournal == MAX_JOURNAL)
      fail(db, E_FULL);
    db->journal[db->njournal].pgno = (int)pgno;
    memcpy(db->journal[db->njournal++].bytes, db->pages[pgno], PAGE);
    db->journaled[pgno] = 1;
  }
  return db->pages[pgno];
}

static void page_init(unsigned char *pg, int type)
{
  memset(pg, 0, PAGE);
  pg[H_TYPE] = (unsigned char)type;
  put16(pg + H_CONTENT, PAGE);
}

static unsigned page_alloc(struct db *db, int type)
{
  if (db->npages == MAX_PAGES)
    fail(db, E_FULL);
  unsigned pgno = (unsigned)db->npages++;
  db->journaled[pgno] = 1; /* new: a rollback drops it */
  page_init(db->pages[pgno], type);
  return pgno;
}

static void end_transaction(struct db *db)
{
  for (int i = 0; i < db->njournal; i++)
    db->journaled[db->journal[i].pgno] = 0;
  for (int p = db->npages_at_begin; p < db->npages; p++)
    db->journaled[p] = 0;
  db->njournal = 0;
}

static void begin(struct db *db) { db->npages_at_begin = db->npages; }

static void commit(struct db *db)
{
  end_transaction(db);
  db->commits++;
}

static void rollback(struct db *db)
{
  for (int i = db->njournal - 1; i >= 0; i--)
    memcpy(db->pages[db->journal[i].pgno], db->journal[i].bytes, PAGE);
  end_transaction(db);
  db->npages = db->npages_at_begin;
  db->rollbacks++;
}

/* ---- cells: leaf (key, length, payload), interior (child, key) ---- */

static int ncells(const unsigned char *pg) { return (int)get16(pg + H_NCELLS); }
static const unsigned char *cell(const unsigned char *pg, int i) { return pg + get16(pg + H_SIZE + 2 * i); }

static int cell_size(const unsigned char *pg, const unsigned char *c)
{
  unsigned long key, len;
  if (pg[H_TYPE] == INTERIOR)
    return 4 + get_varint(c + 4, &key);
  int n = get_varint(c, &key);
  n += get_varint(c + n, &len);
  return n + (int)len;
}

static unsigned long cell_key(const unsigned char *pg, int i)
{
  unsigned long key;
  const unsigned char *c = cell(pg, i);
  get_varint(pg[H_TYPE] == INTERIOR ? c + 4 : c, &key);
  return key;
}

static unsigned child(const unsigned char *pg, int i)
{
  return i < ncells(pg) ? get32(cell(pg, i)) : get32(pg + H_RIGHT);
}

/* The first cell whose key is at least KEY (ncells if none). */
static int find(const unsigned char *pg, unsigned long key)
{
  int lo = 0, hi = ncells(pg);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cell_key(pg, mid) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The cells of a page, copied out, to be laid out again. */
struct cells {
  int n;
  const unsigned char *p[MAX_CELLS];
  int len[MAX_CELLS];
  unsigned char buf[2 * PAGE];
};

static void gather(const unsigned char *pg, struct cells *cs)
{
  int used = 0;
  cs->n = ncells(pg);
  for (int i = 0; i < cs->n; i++) {
    const unsigned char *c = cell(pg, i);
    cs->len[i] = cell_size(pg, c);
    memcpy(cs->buf + used, c, (size_t)cs->len[i]);
    cs->p[i] = cs->buf + used;
    used += cs->len[i];
  }
}

static void insert_gathered(struct cells *cs, int at, const unsigned char *c, int len)
{
  unsigned char *copy = cs->buf + (2 * PAGE - len); /* gathered cells fill at most PAGE bytes */
  memcpy(copy, c, (size_t)len);
  memmove(&cs->p[at + 1], &cs->p[at], (size_t)(cs->n - at) * sizeof cs->p[0]);
  memmove(&cs->len[at + 1], &cs->len[at], (size_t)(cs->n - at) * sizeof cs->len[0]);
  cs->p[at] = copy;
  cs->len[at] = len;
  cs->n++;
}

static void lay_out(unsigned char *pg, int type, const struct cells *cs, int from, int to, unsigned right)
{
  unsigned content = PAGE;
  page_init(pg, type);
  for (int i = from; i < to; i++) {
    content -= (unsigned)cs->len[i];
    memcpy(pg + content, cs->p[i], (size_t)cs->len[i]);
    put16(pg + H_SIZE + 2 * (i - from), content);
  }
  put16(pg + H_NCELLS, (unsigned)(to - from));
  put16(pg + H_CONTENT, content);
  put32(pg + H_RIGHT, right);
}

static int free_bytes(const unsigned char *pg)
{
  return (int)get16(pg + H_CONTENT) - (H_SIZE + 2 * ncells(pg));
}

/* Puts cell C at index AT if the page has room (compacting it if need be). */
static int try_put(unsigned char *pg, int at, const unsigned char *c, int len)
{
  if (free_bytes(pg) < len + 2 || ncells(pg) == MAX_CELLS - 1) {
    struct cells cs;
    gather(pg, &cs);
    lay_out(pg, pg[H_TYPE], &cs, 0, cs.n, get32(pg + H_RIGHT));
    if (free_bytes(pg) < len + 2 || ncells(pg) == MAX_CELLS - 1)
      return 0;
  }
  int n = ncells(pg);
  unsigned content = get16(pg + H_CONTENT) - (unsigned)len;
  memcpy(pg + content, c, (size_t)len);
  memmove(pg + H_SIZE + 2 * (at + 1), pg + H_SIZE + 2 * at, (size_t)(2 * (n - at)));
  put16(pg + H_SIZE + 2 * at, content);
  put16(pg + H_CONTENT, content);
  put16(pg + H_NCELLS, (unsigned)(n + 1));
  return 1;
}

static int interior_cell(unsigned char *c, unsigned childpg, unsigned long key)
{
  put32(c, childpg);
  return 4 + put_varint(c + 4, key);
}

/* Inserts cell C at index AT of page PGNO, splitting it (and its parents,
 * PATH[0..DEPTH)) when it is full.  The root stays page ROOT: when it
 * splits, its halves move to two new pages. */
static void insert_cell(struct db *db, unsigned pgno, int at, const unsigned char *c, int len,
                        const unsigned *path, int depth)
{
  unsigned char *pg = page_write(db, pgno);
  if (try_put(pg, at, c, len))
    return;
  struct cells cs;
  int type = pg[H_TYPE];
  unsigned right = get32(pg + H_RIGHT);
  gather(pg, &cs);
  insert_gathered(&cs, at, c, len);
  int mid = cs.n / 2;
  unsigned long sep;
  unsigned left_right = 0;
  int right_from = mid;
  if (type == LEAF) {
    get_varint(cs.p[mid - 1], &sep);
  } else {
    get_varint(cs.p[mid] + 4, &sep);
    left_right = get32(cs.p[mid]);
    right_from = mid + 1;
  }
  unsigned rpg = page_alloc(db, type);
  unsigned lpg = pgno == ROOT ? page_alloc(db, type) : pgno;
  lay_out(db->pages[rpg], type, &cs, right_from, cs.n, right);
  lay_out(db->pages[lpg], type, &cs, 0, mid, left_right);
  unsigned char up[16];
  int uplen = interior_cell(up, lpg, sep);
  if (pgno == ROOT) {
    page_init(pg, INTERIOR);
    put32(pg + H_RIGHT, rpg);
    try_put(pg, 0, up, uplen);
    return;
  }
  /* The parent's pointer to PGNO now leads to the right half; the left
   * half goes in before it with the separator. */
  unsigned parent = path[depth - 1];
  unsigned char *ppg = page_write(db, parent);
  int j = 0;
  while (j < ncells(ppg) && get32(cell(ppg, j)) != pgno)
    j++;
  put32(j < ncells(ppg) ? ppg + get16(ppg + H_SIZE + 2 * j) : ppg + H_RIGHT, rpg);
  insert_cell(db, parent, j, up, uplen, path, depth - 1);
}

/* The leaf where KEY belongs, its parents in PATH. */
static unsigned descend(struct db *db, unsigned long key, unsigned *path, int *depth)
{
  unsigned pgno = ROOT;
  *depth = 0;
  for (const unsigned char *pg = page_read(db, pgno); pg[H_TYPE] == INTERIOR; pg = page_read(db, pgno)) {
    if (*depth == MAX_DEPTH)
      fail(db, E_CORRUPT);
    path[(*depth)++] = pgno;
    pgno = child(pg, find(pg, key));
  }
  return pgno;
}

static void remove_cell(unsigned char *pg, int i)
{
  int n = ncells(pg);
  memmove(pg + H_SIZE + 2 * i, pg + H_SIZE + 2 * (i + 1), (size_t)(2 * (n - i - 1)));
  put16(pg + H_NCELLS, (unsigned)(n - 1));
}

static void tree_insert(struct db *db, unsigned long key, const unsigned char *rec, int len, int replace)
{
  unsigned path[MAX_DEPTH], leaf;
  int depth;
  leaf = descend(db, key, path, &depth);
  const unsigned char *pg = page_read(db, leaf);
  int at = find(pg, key);
  if (at < ncells(pg) && cell_key(pg, at) == key) {
    if (!replace)
      fail(db, E_CONSTRAINT);
    remove_cell(page_write(db, leaf), at);
  }
  unsigned char c[PAGE];
  int n = put_varint(c, key);
  n += put_varint(c + n, (unsigned long)len);
  if (n + len > PAGE / 4)
    fail(db, E_CHECK);
  memcpy(c + n, rec, (size_t)len);
  insert_cell(db, leaf, at, c, n + len, path, depth);
}

/* ---- cursors: the path from the root; a leaf's index may be past its end ---- */

struct cursor {
  int depth; /* levels in pg[] and idx[]; the last is a leaf */
  unsigned pg[MAX_DEPTH + 1];
  int idx[MAX_DEPTH + 1];
};

static void leftmost(struct db *db, struct cursor *cur, unsigned pgno)
{
  for (;;) {
    const unsigned char *pg = page_read(db, pgno);
    cur->pg[cur->depth] = pgno;
    cur->idx[cur->depth++] = 0;
    if (pg[H_TYPE] == LEAF)
      return;
    pgno = child(pg, 0);
  }
}

/* Moves past leaves that are empty or done; 0 at the end of the tree. */
static int settle(struct db *db, struct cursor *cur)
{
  while (cur->idx[cur->depth - 1] >= ncells(page_read(db, cur->pg[cur->depth - 1]))) {
    cur->depth--;
    for (;;) {
      if (cur->depth == 0)
        return 0;
      const unsigned char *pg = page_read(db, cur->pg[cur->depth - 1]);
      if (++cur->idx[cur->depth - 1] <= ncells(pg)) {
        leftmost(db, cur, child(pg, cur->idx[cur->depth - 1]));
        break;
      }
      cur->depth--;
    }
  }
  return 1;
}

static int seek(struct db *db, struct cursor *cur, unsigned long key)
{
  unsigned pgno = ROOT;
  cur->depth = 0;
  for (;;) {
    const unsigned char *pg = page_read(db, pgno);
    cur->pg[cur->depth] = pgno;
    cur->idx[cur->depth++] = find(pg, key);
    if (pg[H_TYPE] == LEAF)
      return settle(db, cur);
    pgno = child(pg, cur->idx[cur->depth - 1]);
  }
}

static const unsigned char *current(struct db *db, const struct cursor *cur)
{
  return cell(page_read(db, cur->pg[cur->depth - 1]), cur->idx[cur->depth - 1]);
}

/* ---- records: a column count, then per column a type and a value ---- */

enum { T_INT, T_TEXT };

struct mem {
  int type;
  long i;
  int n;
  char z[32];
};

static int encode(const struct mem *cols, int ncols, unsigned char *out)
{
  int n = 0;
  out[n++] = (unsigned char)ncols;
  for (int k = 0; k < ncols; k++) {
    out[n++] = (unsigned char)cols[k].type;
    if (cols[k].type == T_INT) {
      unsigned long zigzag = ((unsigned long)cols[k].i << 1) ^ (unsigned long)(cols[k].i >> 63);
      n += put_varint(out + n, zigzag);
    } else {
      n += put_varint(out + n, (unsigned long)cols[k].n);
      memcpy(out + n, cols[k].z, (size_t)cols[k].n);
      n += cols[k].n;
    }
  }
  return n;
}

static void decode_column(struct db *db, const unsigned char *c, int col, struct mem *m)
{
  unsigned long key, len, v;
  const unsigned char *p = c + get_varint(c, &key);
  p += get_varint(p, &len);
  if (col >= p[0])
    fail(db, E_CORRUPT);
  p++;
  for (int k = 0;; k++) {
    int type = *p++;
    p += get_varint(p, &v);
    if (k == col) {
      m->type = type;
      if (type == T_INT) {
        m->i = (long)(v >> 1) ^ -(long)(v & 1);
      } else {
        m->n = (int)v;
        memcpy(m->z, p, v);
      }
      return;
    }
    if (type == T_TEXT)
      p += v;
  }
}

static void set_int(struct mem *m, long i) { m->type = T_INT; m->i = i; }

static long int_of(struct db *db, const struct mem *m)
{
  if (m->type != T_INT)
    fail(db, E_CORRUPT);
  return m->i;
}

/* "user" and the number, as a text value. */
static void name_of(struct mem *m, long v)
{
  char digits[24];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  memcpy(m->z, "user", 4);
  for (int k = 0; k < n; k++)
    m->z[4 + k] = digits[n - 1 - k];
  m->n = 4 + n;
  m->type = T_TEXT;
}

static void fold(struct db *db, const struct mem *m)
{
  unsigned long h = db->checksum;
  if (m->type == T_INT) {
    h = (h ^ (unsigned long)m->i) * 1099511628211ul;
  } else {
    for (int k = 0; k < m->n; k++)
      h = (h ^ (unsigned char)m->z[k]) * 1099511628211ul;
  }
  db->checksum = h;
}

/* ---- the register machine ---- */

enum opcode {
  OP_Param, OP_Integer, OP_Begin, OP_Commit, OP_Rewind, OP_SeekGE, OP_Next, OP_Rowid,
  OP_Column, OP_Name, OP_MakeRecord, OP_Insert, OP_Replace, OP_Delete, OP_Add, OP_AddImm,
  OP_Multiply, OP_Divide, OP_Remainder, OP_Length, OP_Goto, OP_If, OP_Gt, OP_Ge, OP_Ne,
  OP_CheckPositive, OP_ResultRow, OP_Halt
};

struct op {
  enum opcode code;
  int p1, p2, p3;
};

enum { REGS = 16 };

static unsigned char record[PAGE];

static void execute(struct db *db, const struct op *prog, const long *params)
{
  struct mem r[REGS];
  struct cursor cur;
  int valid = 0, reclen = 0;
  memset(r, 0, sizeof r);
  for (int pc = 0;; pc++) {
    const struct op *op = &prog[pc];
    switch (op->code) {
    case OP_Param: set_int(&r[op->p2], params[op->p1]); break;
    case OP_Integer: set_int(&r[op->p2], op->p1); break;
    case OP_Begin: begin(db); break;
    case OP_Commit: commit(db); break;
    case OP_Rewind:
      cur.depth = 0;
      leftmost(db, &cur, ROOT);
      if (!(valid = settle(db, &cur)))
        pc = op->p2 - 1;
      break;
    case OP_SeekGE:
      if (!(valid = seek(db, &cur, (unsigned long)int_of(db, &r[op->p1]))))
        pc = op->p2 - 1;
      break;
    case OP_Next:
      cur.idx[cur.depth - 1]++;
      if ((valid = settle(db, &cur)))
        pc = op->p2 - 1;
      break;
    case OP_Rowid: set_int(&r[op->p2], (long)cell_key(page_read(db, cur.pg[cur.depth - 1]), cur.idx[cur.depth - 1])); break;
    case OP_Column: decode_column(db, current(db, &cur), op->p1, &r[op->p2]); break;
    case OP_Name: name_of(&r[op->p2], int_of(db, &r[op->p1])); break;
    case OP_MakeRecord: reclen = encode(&r[op->p1], op->p2, record); break;
    case OP_Insert:
    case OP_Replace:
      tree_insert(db, (unsigned long)int_of(db, &r[op->p1]), record, reclen, op->code == OP_Replace);
      /* The tree may have split under the cursor: find the row again. */
      if (op->code == OP_Replace)
        valid = seek(db, &cur, (unsigned long)r[op->p1].i);
      break;
    case OP_Delete:
      if (valid) {
        remove_cell(page_write(db, cur.pg[cur.depth - 1]), cur.idx[cur.depth - 1]);
        valid = settle(db, &cur);
      }
      if (!valid)
        pc = op->p2 - 1;
      break;
    case OP_Add: set_int(&r[op->p3], int_of(db, &r[op->p1]) + int_of(db, &r[op->p2])); break;
    case OP_AddImm: set_int(&r[op->p1], int_of(db, &r[op->p1]) + op->p2); break;
    case OP_Multiply: set_int(&r[op->p3], int_of(db, &r[op->p1]) * int_of(db, &r[op->p2])); break;
    case OP_Divide:
    case OP_Remainder: {
      long a = int_of(db, &r[op->p1]), b = int_of(db, &r[op->p2]);
      if (b == 0)
        fail(db, E_DIVZERO);
      set_int(&r[op->p3], op->code == OP_Divide ? a / b : a % b);
      break;
    }
    case OP_Length: set_int(&r[op->p2], r[op->p1].type == T_TEXT ? r[op->p1].n : 0); break;
    case OP_Goto: pc = op->p2 - 1; break;
    case OP_If: if (int_of(db, &r[op->p1])) pc = op->p2 - 1; break;
    case OP_Gt: if (int_of(db, &r[op->p1]) > int_of(db, &r[op->p3])) pc = op->p2 - 1; break;
    case OP_Ge: if (int_of(db, &r[op->p1]) >= int_of(db, &r[op->p3])) pc = op->p2 - 1; break;
    case OP_Ne: if (int_of(db, &r[op->p1]) != int_of(db, &r[op->p3])) pc = op->p2 - 1; break;
    case OP_CheckPositive: if (int_of(db, &r[op->p1]) < 0) fail(db, E_CHECK); break;
    case OP_ResultRow:
      for (int k = 0; k < op->p2; k++)
        fold(db, &r[op->p1 + k]);
      break;
    case OP_Halt: return;
    }
  }
}

/* Returns the error code of a statement that failed (its changes undone),
 * or 0. */
static int run(struct db *db, const struct op *prog, const long *params)
{
  jmp_buf jb;
  db->on_error = &jb;
  int code = setjmp(jb);
  if (code == 0)
    execute(db, prog, params);
  else
    rollback(db);
  db->on_error = NULL;
  return code;
}

enum { PRIME = 1000003 };

/* INSERT rows FIRST..LAST-1, key (i * 7919) % PRIME, in one transaction;
 * every 997th row repeats the previous row's key: a constraint error. */
static const struct op insert_batch[] = {
  {OP_Begin, 0, 0, 0},
  {OP_Param, 0, 1, 0},          /* r1 = i */
  {OP_Param, 1, 2, 0},          /* r2 = last */
  {OP_Integer, 7919, 8, 0},
  {OP_Integer, PRIME, 9, 0},
  {OP_Integer, 997, 10, 0},
  {OP_Integer, 1000, 11, 0},
  {OP_Integer, 500, 13, 0},
  {OP_Ge, 1, 21, 2},            /* 8: loop */
  {OP_Remainder, 1, 10, 12},
  {OP_Multiply, 1, 8, 3},
  {OP_Ne, 12, 13, 13},          /* i % 997 == 500: the previous row's key */
  {OP_AddImm, 3, -7919, 0},
  {OP_Remainder, 3, 9, 3},      /* 13: r3 = key */
  {OP_Name, 3, 4, 0},           /* r4 = name */
  {OP_Remainder, 3, 11, 5},     /* r5 = score */
  {OP_Integer, 100, 6, 0},      /* r6 = balance */
  {OP_MakeRecord, 4, 3, 0},
  {OP_Insert, 3, 0, 0},
  {OP_AddImm, 1, 1, 0},
  {OP_Goto, 0, 8, 0},
  {OP_Commit, 0, 0, 0},         /* 21 */
  {OP_Halt, 0, 0, 0},
};

/* UPDATE balance = balance + 1000 / (lo % 7) - cost for keys LO..HI;
 * lo % 7 == 0 divides by zero, a negative balance fails the check. */
static const struct op update_range[] = {
  {OP_Begin, 0, 0, 0},
  {OP_Param, 0, 1, 0},          /* r1 = lo */
  {OP_Param, 1, 2, 0},          /* r2 = hi */
  {OP_Param, 2, 3, 0},          /* r3 = cost */
  {OP_Integer, 7, 8, 0},
  {OP_Remainder, 1, 8, 9},
  {OP_Integer, 1000, 10, 0},
  {OP_Divide, 10, 9, 11},       /* r11 = delta */
  {OP_Add, 11, 3, 11},
  {OP_SeekGE, 1, 20, 0},
  {OP_Rowid, 0, 7, 0},          /* 10: loop */
  {OP_Gt, 7, 20, 2},
  {OP_Column, 0, 4, 0},
  {OP_Column, 1, 5, 0},
  {OP_Column, 2, 6, 0},
  {OP_Add, 6, 11, 6},
  {OP_CheckPositive, 6, 0, 0},
  {OP_MakeRecord, 4, 3, 0},
  {OP_Replace, 7, 0, 0},
  {OP_Next, 0, 10, 0},
  {OP_Commit, 0, 0, 0},         /* 20 */
  {OP_Halt, 0, 0, 0},
};

/* SELECT name, score FROM t WHERE score % 3 == 0; then sum(score),
 * sum(length(name)) and count(*). */
static const struct op scan[] = {
  {OP_Integer, 0, 3, 0},
  {OP_Integer, 0, 6, 0},
  {OP_Integer, 0, 7, 0},
  {OP_Integer, 3, 8, 0},
  {OP_Rewind, 0, 15, 0},
  {OP_AddImm, 7, 1, 0},         /* 5: loop */
  {OP_Column, 1, 1, 0},
  {OP_Remainder, 1, 8, 2},
  {OP_If, 2, 14, 0},
  {OP_Column, 0, 4, 0},
  {OP_Add, 3, 1, 3},
  {OP_Length, 4, 5, 0},
  {OP_Add, 6, 5, 6},
  {OP_ResultRow, 4, 2, 0},      /* name, score: r4, r5 */
  {OP_Next, 0, 5, 0},           /* 14 */
  {OP_ResultRow, 6, 2, 0},      /* 15: r6 = total length, r7 = count */
  {OP_ResultRow, 3, 1, 0},
  {OP_Halt, 0, 0, 0},
};

/* DELETE keys LO..HI; more than LIMIT rows fails the check. */
static const struct op delete_range[] = {
  {OP_Begin, 0, 0, 0},
  {OP_Param, 0, 1, 0},
  {OP_Param, 1, 2, 0},
  {OP_Param, 2, 3, 0},          /* r3 = limit */
  {OP_SeekGE, 1, 11, 0},
  {OP_Rowid, 0, 4, 0},          /* 5: loop */
  {OP_Gt, 4, 11, 2},
  {OP_AddImm, 3, -1, 0},
  {OP_CheckPositive, 3, 0, 0},
  {OP_Delete, 0, 11, 0},
  {OP_Goto, 0, 5, 0},
  {OP_Commit, 0, 0, 0},         /* 11 */
  {OP_Halt, 0, 0, 0},
};

/* SELECT * FROM t WHERE rowid = key(j) for COUNT values of j from FIRST. */
static const struct op lookups[] = {
  {OP_Param, 0, 1, 0},          /* r1 = j */
  {OP_Param, 1, 2, 0},          /* r2 = count */
  {OP_Integer, 7919, 8, 0},
  {OP_Integer, PRIME, 9, 0},
  {OP_Multiply, 1, 8, 10},      /* 4: loop */
  {OP_Remainder, 10, 9, 10},    /* r10 = key */
  {OP_SeekGE, 10, 13, 0},
  {OP_Rowid, 0, 4, 0},
  {OP_Ne, 4, 13, 10},
  {OP_Column, 0, 5, 0},
  {OP_Column, 1, 6, 0},
  {OP_Column, 2, 7, 0},
  {OP_ResultRow, 4, 4, 0},
  {OP_AddImm, 1, 1, 0},         /* 13 */
  {OP_AddImm, 2, -1, 0},
  {OP_If, 2, 4, 0},
  {OP_Halt, 0, 0, 0},
};

static struct db database;

/* The rows of the tree, whose keys must ascend: a wrong split or rollback
 * shows here rather than as a different checksum alone. */
static long count_rows(struct db *db)
{
  long rows = 0;
  unsigned long last = 0;
  struct cursor cur = {0};
  leftmost(db, &cur, ROOT);
  for (int ok = settle(db, &cur); ok; cur.idx[cur.depth - 1]++, ok = settle(db, &cur)) {
    unsigned long key = cell_key(page_read(db, cur.pg[cur.depth - 1]), cur.idx[cur.depth - 1]);
    if (rows++ > 0 && key <= last) {
      fprintf(stderr, "db: key %lu after %lu: the tree is out of order\n", key, last);
      exit(1);
    }
    last = key;
  }
  return rows;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 120000;
  struct db *db = &database;
  long errors[E_CORRUPT + 1] = {0};
  db->npages = ROOT + 1;
  page_init(db->pages[ROOT], LEAF);
  for (long first = 0; first < n; first += 100) {
    long p[] = {first, first + 100 < n ? first + 100 : n};
    errors[run(db, insert_batch, p)]++;
  }
  for (long k = 0; k < n / 20; k++) {
    long lo = k * 7919 * 13 % PRIME, p[] = {lo, lo + 2000, -(k % 300) * 3};
    errors[run(db, update_range, p)]++;
  }
  for (long k = 0; k < n / 100; k++) {
    long lo = k * 104729 % PRIME, p[] = {lo, lo + 300, k % 2 ? 1 : 1000};
    errors[run(db, delete_range, p)]++;
  }
  long p[] = {0, n * 2};
  errors[run(db, lookups, p)]++;
  errors[run(db, scan, NULL)]++;
  long rows = count_rows(db);
  printf("db: n %ld rows %ld pages %d commits %ld rollbacks %ld (constraint %ld check %ld divide %ld full %ld)"
         " checksum %016lx\n", n, rows, db->npages, db->commits, db->rollbacks, errors[E_CONSTRAINT],
         errors[E_CHECK], errors[E_DIVZERO], errors[E_FULL], db->checksum);
  return errors[E_CORRUPT] ? 1 : 0;
}
