/* A variable kept in an x86 register by name. */
// EXPECT: inline assembly cannot be compiled for every ISA
// EXPECT-LINE: 7

int in_eax(int x)
{
	register int value __asm__("eax") = x;
	return value;
}
