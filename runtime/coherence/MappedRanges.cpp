//===- MappedRanges.cpp - What the directory may hand out -----------------===//

#include "coherence/MappedRanges.h"

namespace popcorn {

unsigned MappedRanges::firstEndingAbove(uint64_t Address) const {
  unsigned Lo = 0, Hi = Count;
  while (Lo < Hi) {
    unsigned Mid = (Lo + Hi) / 2;
    if (Ranges[Mid].High <= Address)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

Protection MappedRanges::at(uint64_t Address) const {
  unsigned I = firstEndingAbove(Address);
  if (I < Count && Ranges[I].Low <= Address)
    return Ranges[I].Prot;
  return Protection::Unmapped;
}

bool MappedRanges::anyMapped(uint64_t Low, uint64_t High) const {
  unsigned I = firstEndingAbove(Low);
  return I < Count && Ranges[I].Low < High;
}

bool MappedRanges::allMapped(uint64_t Low, uint64_t High) const {
  for (unsigned I = firstEndingAbove(Low); Low < High; ++I) {
    if (I == Count || Ranges[I].Low > Low)
      return false;
    Low = Ranges[I].High;
  }
  return true;
}

void MappedRanges::insertAt(unsigned Index, const Range &R) {
  for (unsigned I = Count; I > Index; --I)
    Ranges[I] = Ranges[I - 1];
  Ranges[Index] = R;
  ++Count;
}

void MappedRanges::eraseAt(unsigned Index, unsigned Erased) {
  for (unsigned I = Index; I + Erased < Count; ++I)
    Ranges[I] = Ranges[I + Erased];
  Count -= Erased;
}

void MappedRanges::splitAt(uint64_t Address) {
  unsigned I = firstEndingAbove(Address);
  if (I == Count || Ranges[I].Low >= Address)
    return;
  Range Left = Ranges[I];
  Left.High = Address;
  Ranges[I].Low = Address;
  insertAt(I, Left);
}

void MappedRanges::joinAround(unsigned Index) {
  if (Index + 1 < Count && Ranges[Index + 1].Low == Ranges[Index].High &&
      Ranges[Index + 1].Prot == Ranges[Index].Prot) {
    Ranges[Index].High = Ranges[Index + 1].High;
    eraseAt(Index + 1, 1);
  }
  if (Index > 0 && Ranges[Index - 1].High == Ranges[Index].Low &&
      Ranges[Index - 1].Prot == Ranges[Index].Prot) {
    Ranges[Index - 1].High = Ranges[Index].High;
    eraseAt(Index, 1);
  }
}

bool MappedRanges::assign(uint64_t Low, uint64_t High, Protection Prot) {
  // Two splits and the new range at most, before anything is erased.
  if (Count + 3 > Capacity)
    return false;
  splitAt(Low);
  splitAt(High);
  unsigned First = firstEndingAbove(Low), Last = First;
  while (Last < Count && Ranges[Last].High <= High)
    ++Last;
  eraseAt(First, Last - First);
  if (Prot != Protection::Unmapped) {
    insertAt(First, Range{Low, High, Prot});
    joinAround(First);
  }
  return true;
}

} // namespace popcorn
