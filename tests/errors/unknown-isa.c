/* Code that knows ISAs by their macros and stops on any other: no ISA's
 * macro is defined, and the #error gets a note saying why, naming the
 * macro its chain tested first. */
// EXPECT: error: "unsupported architecture"
// EXPECT: note: popcorn-clang defines no ISA's macros, so __x86_64__ (tested at line 10) is not defined
// EXPECT-LINE: 17

typedef unsigned long word;

#if defined(__x86_64__) || \
	defined(__amd64__)
#define WORD_BITS 64
#elif defined(__aarch64__)
#define WORD_BITS 64
#elif defined(__i386__)
#else
#error "unsupported architecture"
#endif

int main(void)
{
	return WORD_BITS / 64 - 1;
}
