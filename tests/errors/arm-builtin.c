/* An aarch64 builtin, accepted by the aarch64 front end, has no x86-64
 * lowering.  The line of the function is acceptable. */
// EXPECT: ISA-specific builtin
// EXPECT: in function 'barrier'
// EXPECT-LINE: 10 7

void barrier(void)
{
	/* dmb ish */
	__builtin_arm_dmb(11);
}

int main(void)
{
	barrier();
	return 0;
}
