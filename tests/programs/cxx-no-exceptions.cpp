// A program built with -fno-exceptions and -fno-rtti (as games, embedded
// code and LLVM itself are), against the libc++ built with both: classes
// and virtual calls, templates, containers, std::string, std::function,
// smart pointers, std::sort with a comparator that moves, and streams,
// across moves.  Nothing is an invoke and no type_info is emitted; the
// library's own may still be.
// POPCORN-LANGUAGE-FLAGS: -fno-exceptions -fno-rtti
// POPCORN-MIGRATE-EVERY: 3
#if defined(__cpp_exceptions) || defined(__cpp_rtti) || defined(__GXX_RTTI)
#error "built with exceptions or RTTI: the flags did not reach the compiler"
#endif
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

// Not a leaf: a loop the compiler cannot bound, so its callers have
// migration points.
__attribute__((noinline)) static unsigned weight(unsigned x) {
	unsigned w = 0;
	for (; x; x >>= 1)
		w += x & 1;
	return w;
}

struct Node {
	virtual ~Node() = default;
	virtual long eval() const = 0;
	virtual std::string show() const = 0;
};

struct Number : Node {
	long value;
	explicit Number(long value) : value(value) {}
	long eval() const override { return value; }
	std::string show() const override { return std::to_string(value); }
};

struct Binary : Node {
	char op;
	std::unique_ptr<Node> left, right;
	Binary(char op, std::unique_ptr<Node> l, std::unique_ptr<Node> r)
		: op(op), left(std::move(l)), right(std::move(r)) {}
	long eval() const override {
		long a = left->eval(), b = right->eval();
		return op == '+' ? a + b : op == '*' ? a * b : a - b;
	}
	std::string show() const override { return "(" + left->show() + op + right->show() + ")"; }
};

static std::unique_ptr<Node> build(int depth, unsigned seed) {
	if (depth == 0)
		return std::make_unique<Number>(static_cast<long>(weight(seed * 2654435761u) % 7) + 1);
	static const char ops[] = "+*-";
	return std::make_unique<Binary>(ops[seed % 3], build(depth - 1, seed * 3 + 1), build(depth - 1, seed * 5 + 2));
}

template <typename T> static T sum_of(const std::vector<T> &values) {
	T sum{};
	for (const T &v : values)
		sum += v;
	return sum;
}

int main() {
	std::unique_ptr<Node> tree = build(3, 7);
	printf("%s = %ld\n", tree->show().c_str(), tree->eval());

	std::vector<unsigned> numbers;
	for (unsigned i = 0; i < 200; i++)
		numbers.push_back(i * 2654435761u);
	std::sort(numbers.begin(), numbers.end(), [](unsigned a, unsigned b) {
		unsigned wa = weight(a), wb = weight(b);
		return wa != wb ? wa < wb : a < b;
	});
	printf("sorted: %u %u %u ... %u, sum %u\n", numbers[0], numbers[1], numbers[2], numbers.back(),
	       sum_of(numbers));

	std::map<std::string, std::shared_ptr<std::vector<long>>> groups;
	for (unsigned n : numbers) {
		auto &group = groups["w" + std::to_string(weight(n))];
		if (!group)
			group = std::make_shared<std::vector<long>>();
		group->push_back(n % 1000);
	}
	std::weak_ptr<std::vector<long>> watch = groups.begin()->second;
	for (const auto &[name, group] : groups)
		printf("%s: %zu values, sum %ld, uses %ld\n", name.c_str(), group->size(), sum_of(*group),
		       group.use_count());
	groups.clear();
	printf("watched group expired: %d\n", watch.expired());

	std::function<long(long)> step = [](long x) { return x * 3 + weight(static_cast<unsigned>(x)); };
	std::function<long(long)> twice = [step](long x) { return step(step(x)); };
	std::ostringstream out;
	for (long x = 0; x < 6; x++)
		out << twice(x) << (x < 5 ? "," : "\n");
	fputs(out.str().c_str(), stdout);
	return 0;
}
