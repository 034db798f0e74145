//===- PageTable.h - Per-page records keyed by address ----------*- C++ -*-===//
//
// The directory and every node keep a record per page they have seen.  The
// address space is large and sparse (a 4 GiB arena, the image's data far
// below it), and only the pages a program touches need a record: an
// open-addressing hash in storage the caller provides costs memory for
// those alone, needs no allocator (none exists on the fault path), and
// finds a page in about one probe.  A radix table would also be sparse,
// but would need a pool of interior nodes and several loads per lookup.
//
// Linear probing, and deletion by shifting the rest of the cluster back,
// so that no tombstones accumulate over a long run of maps and unmaps.
// The table counts as full at 3/4 of its slots (longer clusters beyond
// that); insert then fails and the caller reports it.
//
// Entry is a plain struct whose first member is `uint64_t Page`; a zero
// Page marks a free slot (no mapping can hold address 0).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_PAGETABLE_H
#define POPCORN_RUNTIME_PAGETABLE_H

#include "support/AddressMap.h"

namespace popcorn {

template <typename Entry> class PageTable {
public:
  /// Slots: Capacity zeroed entries, Capacity a power of two.
  PageTable(Entry *Slots, uint32_t Capacity) : Slots(Slots), Mask(Capacity - 1) {}

  Entry *find(uint64_t Page) {
    for (uint32_t I = slotOf(Page);; I = (I + 1) & Mask) {
      if (Slots[I].Page == Page)
        return &Slots[I];
      if (Slots[I].Page == 0)
        return nullptr;
    }
  }
  const Entry *find(uint64_t Page) const { return const_cast<PageTable *>(this)->find(Page); }

  /// Page's entry, a new zeroed one if it had none; null when full.
  Entry *insert(uint64_t Page) {
    uint32_t I = slotOf(Page);
    for (; Slots[I].Page != 0; I = (I + 1) & Mask)
      if (Slots[I].Page == Page)
        return &Slots[I];
    if (Used >= limit())
      return nullptr;
    Slots[I] = Entry();
    Slots[I].Page = Page;
    ++Used;
    return &Slots[I];
  }

  /// Frees E's slot.  Entries after it may move: pointers into the table
  /// do not survive a removal.
  void remove(Entry *E) {
    uint32_t Hole = uint32_t(E - Slots);
    for (uint32_t I = (Hole + 1) & Mask; Slots[I].Page != 0; I = (I + 1) & Mask) {
      // An entry may fill the hole if the hole lies on its probe path,
      // i.e. between its home slot and where it is now.
      uint32_t Home = slotOf(Slots[I].Page);
      if (((I - Home) & Mask) >= ((I - Hole) & Mask)) {
        Slots[Hole] = Slots[I];
        Hole = I;
      }
    }
    Slots[Hole] = Entry();
    --Used;
  }

  uint32_t size() const { return Used; }
  uint32_t limit() const { return (Mask + 1) / 4 * 3; }
  uint32_t capacity() const { return Mask + 1; }
  Entry &slot(uint32_t I) { return Slots[I]; }
  const Entry &slot(uint32_t I) const { return Slots[I]; }

private:
  uint32_t slotOf(uint64_t Page) const {
    // Fibonacci hashing: consecutive pages land far apart.
    return uint32_t(((Page / PageBytes) * 0x9e3779b97f4a7c15ull) >> 32) & Mask;
  }

  Entry *Slots;
  uint32_t Mask;
  uint32_t Used = 0;
};

} // namespace popcorn

#endif
