/* A command-line option for one ISA. */
// ARGS: -O2 -march=native -c
// EXPECT: -march=native
// EXPECT: specific to one ISA

int main(void)
{
	return 0;
}
