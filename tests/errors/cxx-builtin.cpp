// An x86 builtin in a lambda: the aarch64 front end does not know it.
// EXPECT: the ISA-specific builtin '__builtin_ia32_pause' cannot be compiled for every ISA
// EXPECT-LINE: 7

void relax(volatile int *flag) {
	auto pause = [] {
		__builtin_ia32_pause();
	};
	while (!*flag)
		pause();
}
