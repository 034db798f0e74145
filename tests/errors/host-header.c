/* A header of a library installed for the build machine (libelf-dev, which
 * scripts/install-deps.sh installs), not built with popcorn-clang. */
// EXPECT: 'gelf.h' file not found: /usr/include/gelf.h is the build machine's
// EXPECT: every dependency of a program must be built with popcorn-clang
// EXPECT-LINE: 7

#include <gelf.h>

int main(void)
{
	return 0;
}
