// An empty asm statement (a compiler barrier, common in C++ headers) gets
// past the front end; the plugin refuses it in a function template's
// instance, which it names as the source does, not by its symbol.
// ARGS: -O0 -c
// EXPECT: inline assembly in function 'int ring::load<int>(int const*)' cannot be compiled for every ISA
// EXPECT-LINE: 11

namespace ring {
template <typename T> T load(const T *p) {
	T value = *p;
	__asm__ volatile("" ::: "memory");
	return value;
}
} // namespace ring

int main() {
	int x = 3;
	return ring::load(&x);
}
