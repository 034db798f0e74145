// The C++ library's types that programs see, for check-cxx-abi.sh: each
// type's size and alignment, and where its key members are in an object
// (found at run time, by looking in the object's bytes for a value the
// member must hold: its private members have no offsetof).  One line per
// fact, "NAME<TAB>VALUE".  Built with CXX_TYPES_DECLARATIONS_ONLY, only the
// includes and the list of types: check-cxx-abi.sh appends assertions.
#include <any>
#include <atomic>
#include <bitset>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <list>
#include <locale>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <shared_mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <typeinfo>
#include <unordered_map>
#include <unwind.h>
#include <utility>
#include <variant>
#include <vector>

// The types, as T(type): size and alignment of each.
#define CXX_TYPES(T) \
	T(std::string) T(std::wstring) T(std::u16string) T(std::string_view) \
	T(std::vector<int>) T(std::vector<bool>) T(std::deque<int>) T(std::list<int>) \
	T(std::map<int, long>) T(std::set<std::string>) T(std::unordered_map<std::string, int>) \
	T(std::pair<char, long double>) T(std::tuple<char, long, long double>) T(std::bitset<100>) \
	T(std::shared_ptr<int>) T(std::weak_ptr<int>) T(std::unique_ptr<int>) \
	T(std::unique_ptr<int, void (*)(int *)>) T(std::unique_ptr<int[]>) \
	T(std::function<int(int)>) T(std::exception_ptr) T(std::exception) T(std::runtime_error) \
	T(std::error_code) T(std::type_info) T(std::any) T(std::optional<long>) \
	T(std::optional<std::string>) T(std::variant<int, double, std::string>) \
	T(std::mutex) T(std::recursive_mutex) T(std::timed_mutex) T(std::shared_mutex) \
	T(std::condition_variable) T(std::condition_variable_any) T(std::once_flag) \
	T(std::thread) T(std::thread::id) T(std::future<int>) T(std::promise<int>) \
	T(std::atomic<int>) T(std::atomic<long double>) T(std::atomic_flag) \
	T(std::chrono::steady_clock::time_point) T(std::mt19937) T(std::mt19937_64) \
	T(std::locale) T(std::ios_base) T(std::streambuf) T(std::istream) T(std::ostream) \
	T(std::iostream) T(std::stringstream) T(std::ifstream) T(std::ofstream) T(std::filebuf) \
	T(std::max_align_t) T(_Unwind_Exception)

#ifndef CXX_TYPES_DECLARATIONS_ONLY

static void print_size(const char *type, size_t size, size_t align) {
	printf("sizeof(%s)\t%zu\nalignof(%s)\t%zu\n", type, size, type, align);
}
#define PRINT_SIZE(...) print_size(#__VA_ARGS__, sizeof(__VA_ARGS__), alignof(__VA_ARGS__));

// Where in OBJECT (SIZE bytes) the first aligned word equal to VALUE is,
// as "offset(TYPE, WHAT)": -1 if nowhere.
template <typename Word>
static void print_offset(const char *type, const char *what, const void *object, size_t size, Word value) {
	long at = -1;
	for (size_t i = 0; at < 0 && i + sizeof value <= size; i += alignof(Word)) {
		Word word;
		memcpy(&word, static_cast<const char *>(object) + i, sizeof word);
		if (word == value)
			at = static_cast<long>(i);
	}
	printf("offset(%s, %s)\t%ld\n", type, what, at);
}
#define PRINT_OFFSET(type, object, what, value) \
	print_offset(type, what, &(object), sizeof(object), (value))

static uintptr_t address(const void *p) { return reinterpret_cast<uintptr_t>(p); }

static void containers() {
	std::string s(100, 'x'); // long: on the heap
	PRINT_OFFSET("std::string", s, "data()", address(s.data()));
	PRINT_OFFSET("std::string", s, "size()", s.size());
	std::vector<int> v(10);
	v.reserve(30);
	PRINT_OFFSET("std::vector<int>", v, "begin", address(v.data()));
	PRINT_OFFSET("std::vector<int>", v, "end", address(v.data() + v.size()));
	PRINT_OFFSET("std::vector<int>", v, "end of capacity", address(v.data() + v.capacity()));
	std::string_view view = s;
	PRINT_OFFSET("std::string_view", view, "data()", address(view.data()));
	PRINT_OFFSET("std::string_view", view, "size()", view.size());
	std::pair<char, long double> pair{'a', 1.5L};
	printf("offset(std::pair<char, long double>, second)\t%ld\n",
	       static_cast<long>(address(&pair.second) - address(&pair)));
}

static void deleter(int *p) { delete p; }

static void smart_pointers() {
	std::shared_ptr<int> shared = std::make_shared<int>(1);
	std::vector<std::shared_ptr<int>> owners(4, shared); // 5 owners
	std::vector<std::weak_ptr<int>> watchers(6, shared);
	std::weak_ptr<int> weak = shared; // the 7th weak reference
	PRINT_OFFSET("std::shared_ptr<int>", shared, "get()", address(shared.get()));
	// The control block: the weak_ptr's other word.
	uintptr_t words[2];
	memcpy(words, &weak, sizeof words);
	uintptr_t block = words[0] == address(shared.get()) ? words[1] : words[0];
	printf("offset(std::make_shared<int> control block, element)\t%ld\n",
	       static_cast<long>(address(shared.get()) - block));
	// libc++ counts owners and weak references less one, as of the
	// shared count's own reference.
	const void *counts = reinterpret_cast<const void *>(block);
	print_offset("std::make_shared<int> control block", "owners - 1", counts, 32, 4l);
	print_offset("std::make_shared<int> control block", "weak references", counts, 32, 7l);
	std::unique_ptr<int, void (*)(int *)> owned(new int(2), deleter);
	PRINT_OFFSET("std::unique_ptr<int, void (*)(int *)>", owned, "get()", address(owned.get()));
	PRINT_OFFSET("std::unique_ptr<int, void (*)(int *)>", owned, "get_deleter()",
	             address(reinterpret_cast<const void *>(owned.get_deleter())));
}

static void vocabulary() {
	std::optional<long> maybe = 0x2233445566778899l; // no byte is 1
	PRINT_OFFSET("std::optional<long>", maybe, "value()", 0x2233445566778899l);
	PRINT_OFFSET("std::optional<long>", maybe, "has_value()", static_cast<char>(1));
	std::variant<int, double, std::string> choice = std::string(40, 'y');
	PRINT_OFFSET("std::variant<int, double, std::string>", choice, "index()",
	             static_cast<unsigned char>(choice.index()));
	std::error_code error(ENOENT, std::generic_category());
	PRINT_OFFSET("std::error_code", error, "value()", ENOENT);
	PRINT_OFFSET("std::error_code", error, "category()", address(&error.category()));
	std::exception_ptr thrown = std::make_exception_ptr(std::runtime_error("thrown"));
	printf("exception_ptr is one pointer\t%d\n", sizeof thrown == sizeof(void *));
}

int main() {
	CXX_TYPES(PRINT_SIZE)
	containers();
	smart_pointers();
	vocabulary();
	printf("offsetof(_Unwind_Exception, exception_class)\t%zu\n", offsetof(_Unwind_Exception, exception_class));
	printf("offsetof(_Unwind_Exception, exception_cleanup)\t%zu\n", offsetof(_Unwind_Exception, exception_cleanup));
	printf("offsetof(_Unwind_Exception, private_1)\t%zu\n", offsetof(_Unwind_Exception, private_1));
	printf("offsetof(_Unwind_Exception, private_2)\t%zu\n", offsetof(_Unwind_Exception, private_2));
	return 0;
}

#endif
