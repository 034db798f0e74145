/* strsearch: count occurrences of several patterns in a generated text,
 * with a naive matcher and with Boyer-Moore-Horspool, and check that they
 * agree.  Size argument: text length in KiB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long rng = 0x9e3779b97f4a7c15ul;
static unsigned next(void)
{
  rng = rng * 6364136223846793005ul + 1442695040888963407ul;
  return (unsigned)(rng >> 33);
}

static const char *words[] = {"the", "popcorn", "kernel", "migrate", "thread",
                              "stack", "frame", "isa", "node", "page",
                              "fault", "x86", "arm", "register", "value"};

static long naive(const char *t, long n, const char *p, long m)
{
  long c = 0;
  for (long i = 0; i + m <= n; i++) {
    long j = 0;
    while (j < m && t[i + j] == p[j])
      j++;
    if (j == m)
      c++;
  }
  return c;
}

static long horspool(const char *t, long n, const char *p, long m)
{
  long shift[256];
  for (int i = 0; i < 256; i++)
    shift[i] = m;
  for (long i = 0; i < m - 1; i++)
    shift[(unsigned char)p[i]] = m - 1 - i;
  long c = 0, i = 0;
  while (i + m <= n) {
    unsigned char last = (unsigned char)t[i + m - 1];
    if (last == (unsigned char)p[m - 1] && memcmp(t + i, p, m - 1) == 0)
      c++;
    i += shift[last];
  }
  return c;
}

int main(int argc, char **argv)
{
  long kib = argc > 1 ? atol(argv[1]) : 8192;
  long n = kib * 1024;
  char *text = malloc(n + 1);
  if (!text) {
    fprintf(stderr, "strsearch: out of memory\n");
    return 1;
  }
  long pos = 0;
  size_t nwords = sizeof words / sizeof words[0];
  while (pos < n) {
    const char *w = words[next() % nwords];
    size_t len = strlen(w);
    for (size_t k = 0; k < len && pos < n; k++)
      text[pos++] = (next() % 97 == 0) ? (char)('a' + next() % 26) : w[k];
    if (pos < n)
      text[pos++] = (next() % 11 == 0) ? '\n' : ' ';
  }
  text[n] = 0;

  static const char *pats[] = {"thread stack", "popcorn kernel", "e", "page fault",
                               "register value the", "arm x86 arm",
                               "migrate thread stack frame", "zq"};
  unsigned long h = 0;
  int agree = 1;
  for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++) {
    long m = (long)strlen(pats[p]);
    long a = naive(text, n, pats[p], m);
    long b = 0;
    for (int r = 0; r < 3; r++)
      b += horspool(text, n, pats[p], m);
    if (3 * a != b)
      agree = 0;
    printf("strsearch \"%s\" %ld\n", pats[p], a);
    h = h * 1000003ul + (unsigned long)a;
  }
  printf("strsearch kib=%ld agree=%d hash=%lu\n", kib, agree, h);
  free(text);
  return 0;
}
