/* x86 intrinsics: the header itself is refused. */
// EXPECT: <immintrin.h> is specific to one ISA
// EXPECT-LINE: 5

#include <immintrin.h>

int main(void)
{
	return 0;
}
