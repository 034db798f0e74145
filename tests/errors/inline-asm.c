/* Inline assembly inside a function cannot be compiled for every ISA. */
// EXPECT: inline assembly cannot be compiled for every ISA
// EXPECT-LINE: 10

static volatile int flag;

void spin(void)
{
	while (!flag)
		__asm__ volatile("yield");
}

int main(void)
{
	flag = 1;
	spin();
	return 0;
}
