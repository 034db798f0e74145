/* Assembly at file scope defines code for one ISA only. */
// EXPECT: inline assembly cannot be compiled for every ISA
// EXPECT-LINE: 6

int helper(void);
__asm__(".globl helper\nhelper:\n\tret\n");

int main(void)
{
	return helper();
}
