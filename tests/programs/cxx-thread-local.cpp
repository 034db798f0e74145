// thread_local objects with constructors and destructors: each thread makes
// its own at first use and destroys it when it ends, the main thread at
// exit.  The main thread's are made after moves, used on other nodes and
// destroyed after more moves; a second thread (at home: threads do not move
// yet) makes and destroys its own while the main thread's live on.  The
// destructors are registered by __cxa_thread_atexit; a thread's
// thread-locals must outlive them.
// POPCORN-MIGRATE-EVERY: 2
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

// Not a leaf: a loop the compiler cannot bound, so that callers have
// migration points between the uses of the thread-locals.
__attribute__((noinline)) static unsigned mix(unsigned x) {
	unsigned h = 0;
	for (; x; x >>= 1)
		h = h * 31 + (x & 1);
	return h;
}

struct Journal {
	const char *owner;
	std::vector<unsigned> entries;
	explicit Journal(const char *owner) : owner(owner) { printf("make journal of %s\n", owner); }
	~Journal() {
		unsigned sum = 0;
		for (unsigned e : entries)
			sum += mix(e);
		printf("destroy journal of %s: %zu entries, sum %u\n", owner, entries.size(), sum);
	}
};

struct Global {
	~Global() { printf("destroy global\n"); }
} global;

thread_local std::string thread_name = "unnamed";
thread_local Journal *current = nullptr;

static Journal &journal(const char *owner) {
	// Made at the first call in each thread.
	thread_local Journal mine(owner);
	return mine;
}

static void record(const char *owner, unsigned from, unsigned count) {
	Journal &j = journal(owner);
	current = &j;
	for (unsigned i = from; i < from + count; i++)
		j.entries.push_back(mix(i * 2654435761u));
	thread_name += "+";
}

static void worker() {
	printf("worker sees name '%s'\n", thread_name.c_str());
	thread_name = "worker";
	record("worker", 100, 50);
	printf("worker: %zu entries, name '%s', own journal %d\n", journal("?").entries.size(),
	       thread_name.c_str(), current == &journal("?"));
}

int main() {
	unsigned before = 0;
	for (unsigned i = 0; i < 8; i++)
		before += mix(i);
	printf("before the first use: %u\n", before);
	thread_name = "main";
	record("main", 0, 20);
	std::thread second(worker);
	second.join();
	record("main", 20, 20);
	printf("main: %zu entries, name '%s', own journal %d\n", journal("?").entries.size(),
	       thread_name.c_str(), current == &journal("?"));
	return 0;
}
