// C++20 (std::span, concepts) over a C object, built by make and by CMake
// with popcorn-clang++ as CXX.
#include "counter.h"
#include <concepts>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

template <std::integral T> static long sum(std::span<const T> values) {
	long s = 0;
	for (T v : values)
		s = counter_add(v);
	return s;
}

int main() {
	std::vector<int> v;
	for (int i = 1; i <= 100; i++)
		v.push_back(i * i % 97);
	std::string label = "sum of " + std::to_string(v.size()) + " squares";
	std::printf("%s: %ld\n", label.c_str(), sum(std::span<const int>(v)));
	return 0;
}
