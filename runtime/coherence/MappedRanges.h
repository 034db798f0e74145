//===- MappedRanges.h - What the directory may hand out ---------*- C++ -*-===//
//
// Home's view of the program's mappings, as the protocol needs it: which
// ranges are mapped, and whether their pages may be read or written.  A
// request for a page outside them is answered "no such page", which the
// asking node turns into the SIGSEGV a native run would get.
//
// A sorted array of disjoint ranges, of fixed capacity: mapping calls
// split and join ranges the way the kernel's areas do, and a program has
// few of them.  assign() checks for room before it changes anything.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_MAPPEDRANGES_H
#define POPCORN_RUNTIME_MAPPEDRANGES_H

#include "support/AddressMap.h"

namespace popcorn {

/// How the program may use a mapped page, weakest first.
enum class Protection : uint8_t { Unmapped, None, Read, ReadWrite };

class MappedRanges {
public:
  static constexpr unsigned Capacity = 256;

  /// [Low, High) (page-aligned, Low < High) becomes Prot (Unmapped:
  /// unmapped); false, and no change, when the table has no room left.
  bool assign(uint64_t Low, uint64_t High, Protection Prot);

  Protection at(uint64_t Address) const;
  /// Whether some page of [Low, High) is mapped.
  bool anyMapped(uint64_t Low, uint64_t High) const;
  /// Whether every page of [Low, High) is mapped.
  bool allMapped(uint64_t Low, uint64_t High) const;

  unsigned size() const { return Count; }

private:
  struct Range {
    uint64_t Low, High;
    Protection Prot;
  };

  /// The first range that ends above Address.
  unsigned firstEndingAbove(uint64_t Address) const;
  /// Cuts the range that contains Address in two there.
  void splitAt(uint64_t Address);
  void insertAt(unsigned Index, const Range &R);
  void eraseAt(unsigned Index, unsigned Ranges);
  /// Joins the range at Index with equal neighbours.
  void joinAround(unsigned Index);

  Range Ranges[Capacity];
  unsigned Count = 0;
};

} // namespace popcorn

#endif
