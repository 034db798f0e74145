// An empty asm statement in a member function: the message names the
// member function with its class and namespace, as the source does.
// EXPECT: inline assembly in function 'geo::Point::bump(int)' cannot be compiled for every ISA
// EXPECT-LINE: 10

namespace geo {
struct Point {
	int x;
	int bump(int d) {
		__asm__ volatile("" ::: "memory");
		return x + d;
	}
};
} // namespace geo

int main() {
	geo::Point p{1};
	return p.bump(2);
}
