// POPCORN-MIGRATE-EVERY: 3
// POPCORN-FLAGS: -fpopcorn-loop-period=auto
/* point-homes.c with the loop points -fpopcorn-loop-period=auto places
 * (strip-mined chunks, tests on back edges, small loops copied), and loops
 * long enough for their points to be reached. */
#define POINT_HOMES_N 200000
#include "point-homes.c"
