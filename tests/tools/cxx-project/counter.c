/* C, called from C++: the objects of both languages in one program. */
#include "counter.h"

static long total;

long counter_add(long n)
{
	total += n;
	return total;
}
