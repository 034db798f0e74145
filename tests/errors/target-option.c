/* --target= would give every ISA x86-64's types and calling conventions
 * (long double, how structs are passed): the program must be refused, not
 * built wrong. */
// ARGS: -O2 --target=x86_64-linux-gnu -c
// EXPECT: option '--target=x86_64-linux-gnu': popcorn-clang compiles for every ISA at once; the target cannot be chosen

long double half(long double x)
{
	return x / 2;
}
