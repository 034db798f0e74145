// Containers and algorithms of libc++, as ordinary C++ code uses them: a
// log of records is generated into a std::vector, sorted with std::sort and
// a lambda comparator (by key, then by value), its words counted in a
// std::unordered_map<std::string, ...>, its keys totalled in an ordered
// std::map, and report lines assembled with std::string.  Each round is
// independent; the checksum covers every structure.
//
//   stl [ROUNDS]   (default 60)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct Record {
  std::string word;
  uint32_t key;
  int32_t value;
};

uint32_t rng = 12345;
uint32_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

const char *const syllables[] = {"ka", "lo", "mi", "nu", "pe", "ra", "si", "to",
                                 "ve", "zu", "an", "el", "or", "ix", "ul", "ey"};

// Words of 2 to 6 syllables: short ones fit std::string's inline buffer,
// long ones do not.
std::string makeWord() {
  uint32_t r = next();
  int n = 2 + r % 5;
  std::string w;
  for (int i = 0; i < n; i++) {
    w += syllables[(r >> (4 + 4 * i)) & 15];
  }
  return w;
}

uint64_t round(int records) {
  std::vector<Record> log;
  log.reserve(records / 2); // grows once or twice, as a vector does
  for (int i = 0; i < records; i++) {
    uint32_t r = next();
    log.push_back({makeWord(), r % 997, static_cast<int32_t>(r >> 12) - (1 << 19)});
  }

  std::sort(log.begin(), log.end(), [](const Record &a, const Record &b) {
    if (a.key != b.key)
      return a.key < b.key;
    return a.value > b.value;
  });

  std::unordered_map<std::string, int> counts;
  for (const Record &r : log)
    ++counts[r.word];

  std::map<uint32_t, int64_t> totals;
  for (const Record &r : log)
    totals[r.key] += r.value;

  // The most frequent words, by a second sort with another comparator.
  std::vector<std::pair<std::string, int>> top(counts.begin(), counts.end());
  std::sort(top.begin(), top.end(), [](const auto &a, const auto &b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });

  std::string report;
  for (size_t i = 0; i < top.size() && i < 50; i++) {
    report += top[i].first;
    report += '=';
    report += std::to_string(top[i].second);
    report += ';';
  }
  for (auto it = totals.begin(); it != totals.end(); ++it) {
    if (it->first % 37 == 0) {
      report += std::to_string(it->first) + ':' + std::to_string(it->second) + ' ';
    }
  }

  uint64_t sum = report.size();
  for (unsigned char c : report)
    sum = sum * 31 + c;
  for (size_t i = 0; i < log.size(); i += 97)
    sum = sum * 131 + log[i].key * 7 + static_cast<uint32_t>(log[i].value) + log[i].word.size();
  sum += counts.size() * 1000003u + totals.size();
  return sum;
}

} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 60;
  uint64_t sum = 0;
  for (int i = 0; i < rounds; i++)
    sum = sum * 1000003u ^ round(20000);
  printf("%d rounds, checksum %016llx\n", rounds, static_cast<unsigned long long>(sum));
  return 0;
}
