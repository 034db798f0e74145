// Lambdas and std::function (calls through libc++'s type-erased wrapper,
// with state captured on the heap), and iostreams (virtual calls into
// libc++'s stream buffers, locale facets), across moves.
// POPCORN-MIGRATE-EVERY: 4
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static std::function<long(long)> compose(std::function<long(long)> f, std::function<long(long)> g) {
	return [f, g](long x) { return f(g(x)); };
}

int main() {
	std::vector<std::function<long(long)>> steps;
	long base = 3;
	steps.push_back([](long x) { return x + 1; });
	steps.push_back([base](long x) { return x * base; });
	steps.push_back([&base](long x) { return x - base; });
	std::function<long(long)> all = [](long x) { return x; };
	for (auto &step : steps)
		all = compose(step, all);
	for (long x = 0; x < 6; x++) {
		base = x;
		std::cout << "all(" << x << ") = " << all(x) << '\n';
	}

	std::ostringstream out;
	out << std::hex << std::setw(8) << std::setfill('0') << 0xbeefL << ' ' << std::dec
	    << std::fixed << std::setprecision(3) << 2.5 / 3 << ' ' << std::boolalpha << true;
	std::cout << out.str() << '\n';

	std::istringstream in("12 apples and 7.5 pears");
	int n;
	std::string what, conj;
	double d;
	in >> n >> what >> conj >> d;
	std::cout << n << '|' << what << '|' << conj << '|' << d << '\n';
	std::cerr << "to stderr: " << n * d << std::endl;
	return 0;
}
