// Classes, virtual calls through base pointers, templates, new and delete,
// RTTI (typeid, dynamic_cast), across moves: vtables and type_info objects
// are data at one address on every ISA, the virtual calls' targets code at
// one address.
// POPCORN-MIGRATE-EVERY: 3
#include <cstdio>
#include <typeinfo>

struct Shape {
	virtual ~Shape() { ++destroyed; }
	virtual double area() const = 0;
	virtual const char *name() const { return "shape"; }
	static int destroyed;
};
int Shape::destroyed = 0;

struct Rect : Shape {
	double w, h;
	Rect(double w, double h) : w(w), h(h) {}
	double area() const override { return w * h; }
	const char *name() const override { return "rect"; }
};

struct Square final : Rect {
	explicit Square(double s) : Rect(s, s) {}
	const char *name() const override { return "square"; }
};

struct Circle : Shape {
	double r;
	explicit Circle(double r) : r(r) {}
	double area() const override { return 3.25 * r * r; }
};

template <typename T, int N>
struct Ring {
	T items[N];
	int next = 0;
	void push(T v) { items[next++ % N] = v; }
	template <typename F> T fold(T init, F f) const {
		for (int i = 0; i < N && i < next; i++)
			init = f(init, items[i]);
		return init;
	}
};

// Not inlined: its calls are virtual and its caller's frame is below it.
__attribute__((noinline)) static double total(Shape *const *shapes, int n) {
	double sum = 0;
	for (int i = 0; i < n; i++) {
		sum += shapes[i]->area();
		printf("%-7s %-10s %8.2f\n", shapes[i]->name(), typeid(*shapes[i]).name(),
		       shapes[i]->area());
	}
	return sum;
}

int main() {
	Shape *shapes[12];
	for (int i = 0; i < 12; i++) {
		switch (i % 3) {
		case 0: shapes[i] = new Rect(i + 1, 2); break;
		case 1: shapes[i] = new Square(i); break;
		default: shapes[i] = new Circle(i / 2.0); break;
		}
	}
	printf("total %.2f\n", total(shapes, 12));
	int rects = 0, squares = 0;
	for (Shape *s : shapes) {
		rects += dynamic_cast<Rect *>(s) != nullptr;
		squares += dynamic_cast<Square *>(s) != nullptr;
	}
	printf("rects %d squares %d same type %d\n", rects, squares,
	       typeid(*shapes[1]) == typeid(Square));
	Ring<long, 5> ring;
	for (long i = 1; i <= 8; i++)
		ring.push(i * i);
	printf("ring sum %ld product %ld\n", ring.fold(0L, [](long a, long b) { return a + b; }),
	       ring.fold(1L, [](long a, long b) { return a * b; }));
	for (Shape *s : shapes)
		delete s;
	printf("destroyed %d\n", Shape::destroyed);
	return 0;
}
