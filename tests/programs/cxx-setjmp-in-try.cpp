// setjmp where an exception may pass: in a try block, and with a local
// that has a destructor, so that the front end makes the call an invoke
// (pugixml's test harness does this).  The object-stack pass once took
// every setjmp call for a plain call and crashed on the invoke.  The thread
// moves in the callees; longjmp comes back to each setjmp from deeper
// frames, and exceptions are thrown and caught around them.
// POPCORN-MIGRATE-EVERY: 3
#include <csetjmp>
#include <cstdio>
#include <stdexcept>
#include <string>

static std::jmp_buf Back;
static int Destroyed;

struct Guard {
	std::string Name;
	explicit Guard(std::string N) : Name(std::move(N)) {}
	~Guard() { Destroyed++; }
};

__attribute__((noinline)) static int deep(int Level, int Jump) {
	char Buffer[64];
	snprintf(Buffer, sizeof Buffer, "level %d", Level);
	if (Level == 0) {
		if (Jump == 1)
			std::longjmp(Back, 7);
		if (Jump == 2)
			throw std::runtime_error(Buffer);
		return 1;
	}
	return deep(Level - 1, Jump) + int(Buffer[6] - '0');
}

// setjmp in a try block.
__attribute__((noinline)) static int inTry(int Jump) {
	volatile int Steps = 0;
	try {
		if (int Value = setjmp(Back)) {
			printf("  back with %d after %d steps\n", Value, int(Steps));
			return Value;
		}
		Steps = 3;
		return deep(5, Jump);
	} catch (const std::exception &E) {
		printf("  caught %s\n", E.what());
		return -1;
	}
}

// setjmp with a local whose destructor an exception would run.
__attribute__((noinline)) static int withLocal(int Jump) {
	Guard G("local " + std::to_string(Jump));
	if (setjmp(Back))
		return int(G.Name.size());
	return deep(4, Jump) + int(G.Name.size());
}

int main() {
	long Sum = 0;
	for (int Round = 0; Round < 30; Round++) {
		int Jump = Round % 3;
		printf("round %d jump %d\n", Round, Jump);
		Sum += inTry(Jump);
		try {
			Sum += withLocal(Jump);
		} catch (const std::exception &E) {
			printf("  outer caught %s\n", E.what());
			Sum += 100;
		}
	}
	printf("sum %ld, destroyed %d\n", Sum, Destroyed);
	return 0;
}
