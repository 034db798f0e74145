// Virtual dispatch: a class hierarchy (an abstract Shape, five concrete
// kinds, one of them two levels deep) held in a std::vector of
// std::unique_ptr<Shape> in mixed order and called through the base
// pointer in the hot loop: a cheap accessor, a computation and a mutation
// per element and step, so the indirect calls do not predict from the loop
// alone.  Integer arithmetic, so every build prints the same checksum.
//
//   shapes [STEPS]   (default 4000)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

class Shape {
public:
  virtual ~Shape() = default;
  virtual int64_t area() const = 0;
  virtual int64_t perimeter() const = 0;
  virtual void grow(int by) = 0;
  virtual int kind() const = 0;
};

class Rect : public Shape {
protected:
  int64_t w, h;

public:
  Rect(int64_t w, int64_t h) : w(w), h(h) {}
  int64_t area() const override { return w * h; }
  int64_t perimeter() const override { return 2 * (w + h); }
  void grow(int by) override {
    w = (w + by) & 1023;
    h = (h + 2 * by) & 1023;
  }
  int kind() const override { return 1; }
};

class Square final : public Rect {
public:
  explicit Square(int64_t s) : Rect(s, s) {}
  void grow(int by) override { w = h = (w + by) & 1023; }
  int kind() const override { return 2; }
};

class Circle final : public Shape {
  int64_t r;

public:
  explicit Circle(int64_t r) : r(r) {}
  // pi as 355/113
  int64_t area() const override { return 355 * r * r / 113; }
  int64_t perimeter() const override { return 710 * r / 113; }
  void grow(int by) override { r = (r + by) % 500; }
  int kind() const override { return 3; }
};

class Triangle final : public Shape {
  int64_t a, b, c;

public:
  Triangle(int64_t a, int64_t b, int64_t c) : a(a), b(b), c(c) {}
  int64_t area() const override { return (a * b) / 2 + c; }
  int64_t perimeter() const override { return a + b + c; }
  void grow(int by) override {
    a = (a + by) & 511;
    b = (b + 3 * by) & 511;
    c = (c ^ by) & 511;
  }
  int kind() const override { return 4; }
};

class Polygon final : public Shape {
  std::vector<int32_t> sides;

public:
  explicit Polygon(int n, uint32_t seed) {
    for (int i = 0; i < n; i++)
      sides.push_back(static_cast<int32_t>((seed >> i) & 63) + 1);
  }
  int64_t area() const override {
    int64_t s = 0;
    for (size_t i = 0; i + 1 < sides.size(); i++)
      s += static_cast<int64_t>(sides[i]) * sides[i + 1];
    return s;
  }
  int64_t perimeter() const override {
    int64_t s = 0;
    for (int32_t x : sides)
      s += x;
    return s;
  }
  void grow(int by) override { sides[by % sides.size()] = (sides[by % sides.size()] + by) & 255; }
  int kind() const override { return 5; }
};

uint32_t rng = 2463534242u;
uint32_t next() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

std::unique_ptr<Shape> make(uint32_t r) {
  switch (r % 5) {
  case 0: return std::make_unique<Rect>(r >> 3 & 255, r >> 11 & 255);
  case 1: return std::make_unique<Square>(r >> 3 & 255);
  case 2: return std::make_unique<Circle>(r >> 3 & 255);
  case 3: return std::make_unique<Triangle>(r >> 3 & 255, r >> 11 & 255, r >> 19 & 255);
  default: return std::make_unique<Polygon>(3 + (r >> 3) % 6, r >> 7);
  }
}

} // namespace

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 4000;
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 0; i < 4096; i++)
    shapes.push_back(make(next()));

  uint64_t sum = 0;
  int64_t kinds[6] = {};
  for (int s = 0; s < steps; s++) {
    for (const std::unique_ptr<Shape> &p : shapes) {
      Shape &sh = *p;
      int k = sh.kind();
      kinds[k]++;
      int64_t a = sh.area();
      sum = sum * 31 + static_cast<uint64_t>(a) + static_cast<uint64_t>(sh.perimeter());
      if ((a & 7) == static_cast<int64_t>(s & 7))
        sh.grow(s + k);
    }
  }
  printf("%d steps, kinds %lld %lld %lld %lld %lld, checksum %016llx\n", steps,
         static_cast<long long>(kinds[1]), static_cast<long long>(kinds[2]),
         static_cast<long long>(kinds[3]), static_cast<long long>(kinds[4]),
         static_cast<long long>(kinds[5]), static_cast<unsigned long long>(sum));
  return 0;
}
