// Exceptions at a realistic rate: a recursive-descent evaluator of
// generated arithmetic expressions, of which about one in twenty is
// malformed or divides by zero.  The error is thrown from several frames
// down (an exception class derived from std::runtime_error, with its
// message in a std::string), and on its way to the handler it runs the
// destructors of the frames' locals: a guard object counting them, the
// std::string of a number being read, a std::vector of operands.  One
// frame catches everything, cleans up and rethrows.  The evaluator does
// the ordinary work between errors.
//
//   throw [LINES]   (default 400000)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

long guards_destroyed = 0;

// A scope's bookkeeping, as RAII classes (locks, spans, transactions) are.
class Guard {
  int depth_;

public:
  explicit Guard(int depth) : depth_(depth) {}
  Guard(const Guard &) = delete;
  ~Guard() { guards_destroyed += depth_; }
};

class EvalError : public std::runtime_error {
public:
  size_t pos;
  EvalError(const std::string &what, size_t pos) : std::runtime_error(what), pos(pos) {}
};

class Parser {
  const std::string &s_;
  size_t i_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(const char *what) {
    throw EvalError(std::string(what) + " at " + std::to_string(i_), i_);
  }

  int64_t number() {
    Guard g(depth_);
    std::string digits;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9')
      digits += s_[i_++];
    if (digits.empty())
      fail("number expected");
    return std::stoll(digits);
  }

  int64_t primary() {
    Guard g(depth_);
    if (i_ < s_.size() && s_[i_] == '(') {
      i_++;
      depth_++;
      int64_t v = sum();
      depth_--;
      if (i_ >= s_.size() || s_[i_] != ')')
        fail("')' expected");
      i_++;
      return v;
    }
    return number();
  }

  int64_t product() {
    Guard g(depth_);
    std::vector<int64_t> operands;
    int64_t v = primary();
    while (i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/')) {
      char op = s_[i_++];
      int64_t r = primary();
      operands.push_back(r);
      if (op == '*') {
        v = (v * r) % 1000000007;
      } else {
        if (r == 0)
          fail("division by zero");
        v /= r;
      }
    }
    return v + static_cast<int64_t>(operands.size());
  }

  int64_t sum() {
    Guard g(depth_);
    int64_t v = product();
    while (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) {
      char op = s_[i_++];
      int64_t r = product();
      v = op == '+' ? v + r : v - r;
    }
    return v;
  }

public:
  explicit Parser(const std::string &s) : s_(s) {}

  int64_t parse() {
    try {
      int64_t v = sum();
      if (i_ != s_.size())
        fail("trailing input");
      return v;
    } catch (...) {
      depth_ = 0; // cleanup, and let the caller handle it
      throw;
    }
  }
};

uint32_t rng = 88172645u;
uint32_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

// An expression of a few terms, nested up to depth 3; with a small
// chance per token of an error (a missing number or parenthesis, a zero
// divisor).
void expr(std::string &out, int depth) {
  int terms = 1 + next() % 3;
  for (int t = 0; t < terms; t++) {
    if (t)
      out += "+-*/"[next() % 4];
    uint32_t r = next();
    if (depth < 3 && r % 4 == 0) {
      out += '(';
      expr(out, depth + 1);
      if (r % 97 != 1)
        out += ')';
    } else if (r % 71 == 3) {
      // a missing number
    } else {
      out += std::to_string(r % 61 == 5 ? 0 : 1 + (r >> 8) % 5000);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  int lines = argc > 1 ? atoi(argv[1]) : 400000;
  int64_t total = 0;
  long errors = 0;
  uint64_t where = 0;
  std::string line;
  for (int n = 0; n < lines; n++) {
    line.clear();
    expr(line, 0);
    try {
      Parser p(line);
      total += p.parse();
    } catch (const EvalError &e) {
      errors++;
      where = where * 31 + e.pos + std::string(e.what()).size();
    }
  }
  printf("%d lines, %ld errors, total %lld, where %016llx, guards %ld\n", lines, errors,
         static_cast<long long>(total), static_cast<unsigned long long>(where), guards_destroyed);
  return 0;
}
