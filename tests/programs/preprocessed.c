/* Built through a preprocessed file with -Werror (configure's and some
 * makefiles' way): preprocessed from standard input with -x c (popcorn-clang
 * used to drop -x, so clang took the input for a linker input), then the .i
 * compiled (popcorn-clang used to pass its include directories there too,
 * and clang's "argument unused during compilation" warnings became
 * errors). */
#include <stdio.h>
#include <string.h>

#define STR(x) #x
#define XSTR(x) STR(x)
#define SQUARE(x) ((x) * (x))
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const words[] = {"alpha", "beta", "gamma", "delta"};

int main(void)
{
	printf("%s %s\n", XSTR(SQUARE(3)), STR(__LINE__));
	for (size_t i = 0; i < COUNT_OF(words); i++)
		printf("%zu %s %d %zu\n", i, words[i], SQUARE((int)i + 1), strlen(words[i]));
	printf("%s\n", __FILE__[0] ? "file" : "none");
	return 0;
}
// POPCORN-PREPROCESS-FIRST
// POPCORN-FLAGS: -Wall -Wextra -Werror
