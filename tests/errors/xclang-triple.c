/* The front end's own target option, passed straight to it: no way around
 * the refusal of --target=. */
// ARGS: -O2 -Xclang -triple -Xclang x86_64-unknown-linux-gnu -c
// EXPECT: option '-Xclang -triple': popcorn-clang compiles for every ISA at once; the target cannot be chosen

long double half(long double x)
{
	return x / 2;
}
