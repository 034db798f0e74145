/* The thread of a fault test: prints a line at home, moves to node
 * argv[1] and works there on argv[2] pages of home's memory, page after
 * page (every page a fetch from home, every pass a write back of the pages
 * it wrote), until killed or until argv[3] passes are done; then it comes
 * home and prints the checksum.  A node that cannot be reached leaves it
 * at home, where it does the same work. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long touch(unsigned char *Page, unsigned long Pass) {
  Page[Pass % 4096] += (unsigned char)Pass;
  return Page[0] + Page[Pass % 4096];
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: worker NODE PAGES PASSES (0: forever)\n");
    return 2;
  }
  int node = atoi(argv[1]);
  long pages = atol(argv[2]), passes = atol(argv[3]);
  unsigned char *memory = calloc((size_t)pages, 4096);
  for (long p = 0; p < pages; p++)
    memory[p * 4096] = (unsigned char)p;
  printf("start: %ld pages\n", pages);
  if (popcorn_migrate(node) != 0)
    fprintf(stderr, "worker: stays home: %s\n", strerror(errno));
  fprintf(stderr, "worker: working on node %d\n", popcorn_current_node());
  unsigned long sum = 0;
  for (long pass = 0; passes == 0 || pass < passes; pass++)
    for (long p = 0; p < pages; p++)
      sum += touch(memory + p * 4096, (unsigned long)pass);
  popcorn_migrate(0);
  printf("checksum %lu\n", sum);
  return 0;
}
