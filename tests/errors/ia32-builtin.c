/* An x86 builtin: the aarch64 front end does not know it. */
// EXPECT: the ISA-specific builtin '__builtin_ia32_pause' cannot be compiled for every ISA
// EXPECT-LINE: 9

void relax(volatile int *flag)
{
	while (!*flag)
		/* The x86 "pause" instruction. */
		__builtin_ia32_pause();
}
