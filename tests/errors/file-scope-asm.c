/* Assembly at file scope defines code for one ISA only.  Clang keeps no
 * source location for it in the IR, so the message names only the file. */
// EXPECT: file-scope assembly in file-scope-asm.c

int helper(void);
__asm__(".globl helper\nhelper:\n\tret\n");

int main(void)
{
	return helper();
}
