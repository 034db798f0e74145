// Member functions that return *this (a stream-like message builder, as
// GoogleTest's Message and AssertionResult): the optimizer marks their
// 'this' argument 'returned', and aarch64's back end then assumes x0 still
// holds it after the call, on the normal path and in the landing pad of a
// temporary's destructor.  No call-site record describes such a register:
// the back ends must not rely on it.
// POPCORN-MIGRATE-EVERY: 3
#include <cstdio>
#include <sstream>
#include <string>

struct Message {
	std::stringstream *ss;
	Message() : ss(new std::stringstream) {}
	~Message() { delete ss; }
	Message &operator<<(const char *s);
	Message &operator<<(long v);
};

__attribute__((noinline)) Message &Message::operator<<(const char *s) {
	if (s == nullptr)
		*ss << "(null)";
	else
		*ss << s;
	return *this;
}

__attribute__((noinline)) Message &Message::operator<<(long v) {
	*ss << v;
	return *this;
}

struct Result {
	std::string *text = nullptr;
	~Result() { delete text; }
	void append(const Message &m) {
		if (!text)
			text = new std::string;
		text->append(m.ss->str());
	}
	// A temporary Message, destroyed on the way out if a call throws.
	template <typename T> Result &operator<<(const T &value) {
		append(Message() << value);
		return *this;
	}
};

int main() {
	Result r;
	for (long i = 0; i < 8; i++)
		r << "step " << i << (i % 2 ? " odd" : " even") << ";";
	Message m;
	m << "chained " << 1L << " " << 2L << " " << 3L;
	r.append(m);
	std::printf("%s\n", r.text->c_str());
	return 0;
}
