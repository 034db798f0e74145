/* An #error under an #ifndef of an ISA feature, within a conditional that
 * tests nothing of an ISA: the note names the feature. */
// EXPECT: error: this code needs NEON or SSE2
// EXPECT: note: popcorn-clang defines no ISA's macros, so __ARM_NEON (tested at line 9) is not defined
// EXPECT-LINE: 11

#ifndef WORDS_PER_BLOCK
#define WORDS_PER_BLOCK 4
#if !defined(__ARM_NEON) && !defined(__SSE2__)
/* #if defined(__x86_64__): a comment is no condition */
#error this code needs NEON or SSE2
#endif
#endif

int main(void)
{
	return 0;
}
