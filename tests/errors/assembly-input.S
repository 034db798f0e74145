/* An assembly source file is specific to one ISA. */
// ARGS: -c
// EXPECT: assembly-input.S
// EXPECT: assembly is specific to one ISA

	.text
	.globl f
f:
	ret
