/* x86 inline assembly: the aarch64 front end does not know its constraints,
 * yet the message is the one every other assembly gets. */
// EXPECT: inline assembly cannot be compiled for every ISA
// EXPECT-LINE: 10

unsigned long long cycles(void)
{
	unsigned lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}
