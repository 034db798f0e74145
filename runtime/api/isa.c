/* Which ISA this copy of the runtime was compiled for.  Every ISA's image
 * has its own, so the answer follows the thread.  The names are data every
 * image holds at one address, with the same bytes (popcorn-ld aligns the
 * images' data by name): a name the program keeps reads the same after the
 * thread moves.  A string literal would be each image's own, where the
 * other image has other bytes. */
#include <popcorn.h>

const char popcorn_isa_names[2][8] = {"x86_64", "aarch64"};

const char *popcorn_isa(void)
{
#if defined(__x86_64__)
	return popcorn_isa_names[0];
#elif defined(__aarch64__)
	return popcorn_isa_names[1];
#else
#error "unsupported ISA"
#endif
}
