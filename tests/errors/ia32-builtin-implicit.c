/* An x86 builtin in a build that lets implicit declarations through: it
 * reaches the IR as a call to an unknown function, refused there. */
// ARGS: -O2 -Wno-error=implicit-function-declaration -c
// EXPECT: the ISA-specific builtin '__builtin_ia32_pause' in function 'relax' cannot be compiled for every ISA
// EXPECT-LINE: 10

void relax(volatile int *flag)
{
	while (!*flag)
		__builtin_ia32_pause();
}
