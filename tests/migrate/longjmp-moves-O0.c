// MIGRATE-MIN: 90
// POPCORN-FLAGS: -O0
/* longjmp-moves.c at -O0: values kept across setjmp live in other slots. */
#include "longjmp-moves.c"
