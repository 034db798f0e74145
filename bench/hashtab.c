/* hashtab: open-addressing hash table (linear probing, power-of-two
 * capacity, 64-bit keys) with inserts, successful and failing lookups
 * and deletions with backward-shift.  Size argument: number of keys. */
#include <stdio.h>
#include <stdlib.h>

struct slot {
  unsigned long key; /* 0 = empty */
  long value;
};

struct table {
  struct slot *slots;
  unsigned long mask;
  long count;
};

static unsigned long hash(unsigned long k)
{
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdul;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ul;
  k ^= k >> 33;
  return k;
}

static void table_init(struct table *t, long expected)
{
  unsigned long cap = 16;
  while (cap < (unsigned long)expected * 2)
    cap <<= 1;
  t->slots = calloc(cap, sizeof *t->slots);
  if (!t->slots) {
    fprintf(stderr, "hashtab: out of memory\n");
    exit(1);
  }
  t->mask = cap - 1;
  t->count = 0;
}

/* Returns 1 if the key was new. */
static int insert(struct table *t, unsigned long key, long value)
{
  unsigned long i = hash(key) & t->mask;
  for (;;) {
    struct slot *s = &t->slots[i];
    if (s->key == 0) {
      s->key = key;
      s->value = value;
      t->count++;
      return 1;
    }
    if (s->key == key) {
      s->value += value;
      return 0;
    }
    i = (i + 1) & t->mask;
  }
}

static struct slot *lookup(const struct table *t, unsigned long key)
{
  unsigned long i = hash(key) & t->mask;
  for (;;) {
    struct slot *s = &t->slots[i];
    if (s->key == key)
      return s;
    if (s->key == 0)
      return NULL;
    i = (i + 1) & t->mask;
  }
}

static int erase(struct table *t, unsigned long key)
{
  struct slot *s = lookup(t, key);
  if (!s)
    return 0;
  unsigned long i = (unsigned long)(s - t->slots);
  unsigned long j = i;
  for (;;) {
    j = (j + 1) & t->mask;
    if (t->slots[j].key == 0)
      break;
    unsigned long home = hash(t->slots[j].key) & t->mask;
    /* Move slot j back to i if its home is not cyclically in (i, j]. */
    if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
      t->slots[i] = t->slots[j];
      i = j;
    }
  }
  t->slots[i].key = 0;
  t->slots[i].value = 0;
  t->count--;
  return 1;
}

static unsigned long key_of(unsigned long i)
{
  /* Distinct, non-zero, scattered keys; some repeats via the modulus. */
  return (i * 2654435761ul) % 4000000007ul + 1;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  struct table t;
  table_init(&t, n);
  long fresh = 0;
  for (long i = 0; i < n; i++)
    fresh += insert(&t, key_of((unsigned long)i * 7 % (unsigned long)n), i);
  long found = 0, missing = 0, acc = 0;
  for (int round = 0; round < 6; round++) {
    for (long i = 0; i < n; i++) {
      struct slot *s = lookup(&t, key_of((unsigned long)i + round));
      if (s) {
        found++;
        acc += s->value;
      } else {
        missing++;
      }
    }
    for (long i = 0; i < n / 4; i++)
      (void)lookup(&t, key_of((unsigned long)i) ^ 0x5555555555ul); /* misses */
  }
  long erased = 0;
  for (long i = 0; i < n; i += 3)
    erased += erase(&t, key_of((unsigned long)i));
  long after = 0;
  for (long i = 0; i < n; i++)
    after += lookup(&t, key_of((unsigned long)i)) != NULL;
  printf("hashtab n=%ld fresh=%ld found=%ld missing=%ld acc=%ld erased=%ld "
         "left=%ld/%ld\n",
         n, fresh, found, missing, acc, erased, after, t.count);
  free(t.slots);
  return 0;
}
