/* The same as --target=, in clang's other spelling: its value is the next
 * argument, which must not be taken for an input file. */
// ARGS: -O2 -target x86_64-linux-gnu -c
// EXPECT: option '-target x86_64-linux-gnu': popcorn-clang compiles for every ISA at once; the target cannot be chosen

long double half(long double x)
{
	return x / 2;
}
