// std::vector, std::map, std::string, std::unordered_map, and std::sort
// with a lambda comparator that reaches migration points: the thread moves
// inside the comparator, with libc++'s sorting frames below it.
// POPCORN-MIGRATE-EVERY: 5
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

// Not a leaf: a loop whose trip count the compiler cannot bound, so the
// comparator that calls it has migration points.
__attribute__((noinline)) static unsigned weight(unsigned x) {
	unsigned w = 0;
	for (; x; x >>= 1)
		w += x & 1;
	return w;
}

int main() {
	std::vector<unsigned> v;
	for (unsigned i = 0; i < 300; i++)
		v.push_back((i * 2654435761u) >> 7);
	std::sort(v.begin(), v.end(), [](unsigned a, unsigned b) {
		unsigned wa = weight(a), wb = weight(b);
		return wa != wb ? wa < wb : a < b;
	});
	printf("first %u last %u\n", v.front(), v.back());
	unsigned long check = 0;
	for (unsigned i = 0; i < v.size(); i++)
		check = check * 31 + v[i];
	printf("order check %lu\n", check);

	std::map<std::string, int> words;
	const char *text[] = {"the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog",
			      "the", "end"};
	for (const char *w : text)
		words[w]++;
	for (const auto &[word, count] : words)
		printf("%s:%d ", word.c_str(), count);
	printf("\n");

	std::unordered_map<int, std::string> names;
	for (int i = 0; i < 200; i++)
		names[i * 7] = "n" + std::to_string(i);
	std::string joined;
	for (int i = 0; i < 200 * 7; i += 97)
		if (auto it = names.find(i); it != names.end())
			joined += it->second + ",";
	printf("found %s size %zu\n", joined.c_str(), names.size());

	std::string s = "migrating strings";
	for (int i = 0; i < 5; i++)
		s = s.substr(1) + s[0];
	std::reverse(s.begin(), s.end());
	printf("%s %zu\n", s.c_str(), s.find("ing"));
	return 0;
}
