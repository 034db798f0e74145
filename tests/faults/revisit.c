/* The thread of a node-ended test: it works on home's memory on node
 * argv[1], comes home, waits there until the file argv[2] exists (the
 * test ends the node meanwhile), then goes back to the node and works
 * again.  stdout is the work's result, the same wherever it ran; stderr
 * says where each trip went. */
#include <errno.h>
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { Pages = 64 };

static unsigned long work(unsigned char *memory, unsigned long round) {
  unsigned long sum = 0;
  for (long p = 0; p < Pages; p++) {
    memory[p * 4096 + round] += (unsigned char)(p + round);
    sum = sum * 31 + memory[p * 4096] + memory[p * 4096 + round];
  }
  return sum;
}

static void trip(int node, unsigned char *memory, unsigned long round) {
  int moved = popcorn_migrate(node);
  int error = errno;
  unsigned long sum = work(memory, round);
  fprintf(stderr, "revisit: trip %lu on node %d%s%s\n", round, popcorn_current_node(),
          moved ? ": " : "", moved ? strerror(error) : "");
  popcorn_migrate(0);
  printf("trip %lu: %lu\n", round, sum);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: revisit NODE GO_FILE\n");
    return 2;
  }
  int node = atoi(argv[1]);
  unsigned char *memory = calloc(Pages, 4096);
  trip(node, memory, 1);
  /* Home changes the pages the node held: a node that starts again must
   * fetch them anew. */
  for (long p = 0; p < Pages; p++)
    memory[p * 4096] ^= 0x5a;
  fprintf(stderr, "revisit: home again\n");
  while (access(argv[2], F_OK) != 0)
    usleep(10000);
  trip(node, memory, 2);
  return 0;
}
