// A copy constructor that calls a member function which may throw, then
// an operator= that returns *this, each with a landing pad that destroys
// the member (jsoncpp's Json::Value(const Value &)).  The optimizer marks
// operator='s first argument 'returned', and aarch64 then keeps X0 across
// the call; X0 is also the landing pad's exception pointer, which the
// unwinder sets: popcorn-llc's check once took it for a value kept across
// the call and refused the file.  The thread moves in the callees, and
// exceptions pass through both landing pads.
// POPCORN-MIGRATE-EVERY: 3
#include <cstdio>
#include <stdexcept>
#include <string>

struct Note {
	int *text = nullptr;
	Note() = default;
	Note &operator=(const Note &other);
	~Note() {
		if (text)
			printf("note %d dropped\n", *text);
		delete text;
	}
};

__attribute__((noinline)) Note &Note::operator=(const Note &other) {
	if (other.text && *other.text < 0)
		throw std::invalid_argument("negative note " + std::to_string(*other.text));
	if (other.text) {
		delete text;
		text = new int(*other.text + 1);
	}
	return *this;
}

struct Value {
	long payload, kind;
	Note note;
	long start, limit;
	Value() : payload(0), kind(0), start(0), limit(0) {}
	Value(const Value &other);
	void copyPayload(const Value &from);
};

__attribute__((noinline)) void Value::copyPayload(const Value &from) {
	if (from.payload < 0)
		throw std::runtime_error("negative payload " + std::to_string(from.payload));
	payload = from.payload * 2;
	kind = from.kind;
}

Value::Value(const Value &other) {
	copyPayload(other);
	note = other.note;
	start = other.start;
	limit = other.limit;
}

int main() {
	long sum = 0;
	for (int i = 0; i < 12; i++) {
		Value v;
		v.payload = i % 4 == 1 ? -i : i;
		v.kind = i;
		v.start = i * 3;
		v.limit = i * 5;
		v.note.text = new int(i % 3 == 2 ? -i : i * 10);
		try {
			Value w(v);
			printf("%d: payload %ld kind %ld note %d start %ld limit %ld\n", i, w.payload, w.kind,
			       *w.note.text, w.start, w.limit);
			sum += w.payload + *w.note.text + w.start + w.limit;
		} catch (const std::exception &e) {
			printf("%d: caught %s\n", i, e.what());
			sum -= i;
		}
	}
	printf("sum %ld\n", sum);
	return 0;
}
