// Inline assembly in C++, inside a member function template: refused as
// in C, at its line.
// EXPECT: inline assembly cannot be compiled for every ISA
// EXPECT-LINE: 11

template <typename T>
struct Spinner {
	volatile T flag;
	void spin() {
		while (!flag)
			__asm__ volatile("yield");
	}
};

int main() {
	Spinner<int> s{1};
	s.spin();
	return 0;
}
