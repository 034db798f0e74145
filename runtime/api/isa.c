/* Which ISA this copy of the runtime was compiled for.  Every ISA's image
 * has its own, so the answer follows the thread. */
#include <popcorn.h>

const char *popcorn_isa(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__aarch64__)
	return "aarch64";
#else
#error "unsupported ISA"
#endif
}
