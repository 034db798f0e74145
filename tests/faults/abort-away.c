/* Aborts on node argv[1] (at home if it cannot go there): the program
 * must end by SIGABRT wherever the thread was, as a run at home does. */
#include <popcorn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: abort-away NODE\n");
    return 2;
  }
  popcorn_migrate(atoi(argv[1]));
  fprintf(stderr, "abort-away: aborts on node %d\n", popcorn_current_node());
  abort();
}
