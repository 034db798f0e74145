/* aarch64 intrinsics: the header itself is refused, although the front end
 * targets aarch64. */
// EXPECT: <arm_neon.h> is specific to one ISA
// EXPECT-LINE: 6

#include <arm_neon.h>

int main(void)
{
	return 0;
}
