// Exceptions thrown and caught, destructors run while unwinding, a handler
// that throws anew and one that rethrows, nested handlers, std::exception's
// hierarchy, a throw from deep recursion; the thread moves before and after
// throws (not while an exception is on its way to its handler: the runtime
// waits).  The try of each handler ends its function, so the call in it is
// the last before aarch64's epilogue, whose unwind row follows the call.
// POPCORN-MIGRATE-EVERY: 3
#include <cstdio>
#include <stdexcept>
#include <string>

struct Guard {
	int id;
	explicit Guard(int id) : id(id) {}
	~Guard() { printf("unwind guard %d\n", id); }
};

struct AppError : std::runtime_error {
	int code;
	AppError(const std::string &what, int code) : std::runtime_error(what), code(code) {}
};

__attribute__((noinline)) static int dive(int depth, int limit) {
	Guard g(depth);
	if (depth == limit)
		throw AppError("bottom at " + std::to_string(depth), depth * 10);
	return dive(depth + 1, limit) + 1;
}

__attribute__((noinline)) static void throwsAnew(int n) {
	try {
		dive(0, n);
	} catch (AppError &e) {
		printf("throwing anew after %s\n", e.what());
		throw AppError("again", e.code + 1);
	}
}

__attribute__((noinline)) static void rethrows(int n) {
	try {
		dive(0, n);
	} catch (AppError &e) {
		printf("rethrowing %s\n", e.what());
		e.code++;
		throw;
	}
}

int main() {
	for (int round = 0; round < 3; round++) {
		try {
			throwsAnew(round + 2);
		} catch (const std::runtime_error &e) {
			printf("caught %s code %d\n", e.what(), dynamic_cast<const AppError &>(e).code);
		}
		try {
			rethrows(round + 1);
		} catch (const AppError &e) {
			printf("caught rethrown %s code %d\n", e.what(), e.code);
		}
	}
	try {
		try {
			throw 42;
		} catch (int v) {
			printf("inner %d\n", v);
			throw std::out_of_range("from inner handler");
		}
	} catch (const std::logic_error &e) {
		printf("outer %s\n", e.what());
	}
	try {
		std::string("abc").at(7);
	} catch (const std::out_of_range &) {
		printf("at() threw out_of_range\n");
	}
	return 0;
}
