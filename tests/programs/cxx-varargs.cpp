// Variadic functions in C++ (va_arg from <cstdarg>): a free function, a
// member function, a printf-like logger that hands its va_list on to
// vsnprintf, and a variadic function called from a template, every
// argument class, across moves.  va_arg calls popcorn's C helper: in C++
// it must keep its C name.
// POPCORN-MIGRATE-EVERY: 3
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

static long sum_ints(int n, ...) {
	va_list ap;
	va_start(ap, n);
	long total = 0;
	for (int i = 0; i < n; i++)
		total += va_arg(ap, int);
	va_end(ap);
	return total;
}

struct Log {
	std::vector<std::string> lines;
	// A printf-like member function, as build tools write their errors.
	void add(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
		va_list ap;
		va_start(ap, fmt);
		char buf[256];
		vsnprintf(buf, sizeof buf, fmt, ap);
		va_end(ap);
		lines.push_back(buf);
	}
	// Walks its arguments twice: with va_arg, then a copy with vsnprintf.
	std::string mixed(const char *types, ...) {
		va_list ap, again;
		va_start(ap, types);
		va_copy(again, ap);
		std::string out;
		char buf[64];
		for (const char *t = types; *t; t++) {
			switch (*t) {
			case 'i': snprintf(buf, sizeof buf, " i:%d", va_arg(ap, int)); break;
			case 'l': snprintf(buf, sizeof buf, " l:%lld", va_arg(ap, long long)); break;
			case 'd': snprintf(buf, sizeof buf, " d:%.6f", va_arg(ap, double)); break;
			case 'L': snprintf(buf, sizeof buf, " L:%.12Lf", va_arg(ap, long double)); break;
			case 's': snprintf(buf, sizeof buf, " s:%s", va_arg(ap, const char *)); break;
			case 'p': snprintf(buf, sizeof buf, " p:%d", *va_arg(ap, int *)); break;
			}
			out += buf;
		}
		va_end(ap);
		vsnprintf(buf, sizeof buf, " again: %d %lld %.2f", again);
		va_end(again);
		return out + buf;
	}
};

template <typename... Args> static long sum_of(Args... args) {
	return sum_ints(sizeof...(args), static_cast<int>(args)...);
}

int main() {
	Log log;
	int seven = 7;
	for (int round = 0; round < 20; round++) {
		long s = sum_ints(5, round, 2 * round, 3, -4, 100);
		log.add("round %d: sum %ld, template sum %ld, %s %5.2f %c", round, s,
		        sum_of(round, 'a', 2L, short(9)), round % 2 ? "odd" : "even", round / 3.0,
		        'A' + round);
		log.add("%s", log.mixed("ildLsp", round, 1LL << (40 + round % 8), 0.25 * round,
		                        (long double)round / 7, "text", &seven)
		                  .c_str());
	}
	for (const std::string &line : log.lines)
		std::printf("%s\n", line.c_str());
	return 0;
}
