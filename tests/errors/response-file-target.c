/* Options in a response file (@FILE) are checked like any other. */
// FILE: target.rsp -O2 --target=x86_64-linux-gnu
// ARGS: -c @target.rsp
// EXPECT: option '--target=x86_64-linux-gnu': popcorn-clang compiles for every ISA at once; the target cannot be chosen

long double half(long double x)
{
	return x / 2;
}
