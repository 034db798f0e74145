//===- ReadablePages.cpp - Home's pages it may read in place --------------===//
#include "memory/ReadablePages.h"
#include "state/NodeState.h"
#include "support/AddressMap.h"
#include "support/ProgramThreads.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

constexpr uint64_t ArenaPages = ArenaBytes / PageBytes;

// The bits, valid for the current count of mapping changes; null if the
// program runs other threads or maps files, or there is no memory for them.
uint8_t *currentBits() {
  NodeState &N = node();
  if (!inPlaceThisTrip())
    return nullptr;
  if (!N.ReadableBits && !(N.ReadableBits = sys::mapPrivate(ArenaPages / 8)))
    return nullptr;
  if (N.ReadableSince != N.MappingChanges) {
    // Given back to the kernel rather than cleared: committed again as
    // the pages are noted.
    sys::call6(sys::Madvise, long(N.ReadableBits), long(ArenaPages / 8), 4 /* DONTNEED */);
    N.ReadableSince = N.MappingChanges;
  }
  return N.ReadableBits;
}

// Whether the program runs one thread, this one (ProgramThreads.h).
bool programRunsOneThread() {
  bool Alone = true;
  forEachOtherThread([&Alone](int) { Alone = false; });
  return Alone;
}

} // namespace

bool inPlaceThisTrip() { return node().OneProgramThread && !node().FileMapped; }

void noteProgramThreads() { node().OneProgramThread = programRunsOneThread(); }

void noteReadable(uint64_t Address, uint64_t Pages) {
  uint8_t *Bits = inArena(Address, Pages * PageBytes) ? currentBits() : nullptr;
  if (!Bits)
    return;
  for (uint64_t I = (Address - ArenaBase) / PageBytes, End = I + Pages; I < End; I++)
    Bits[I / 8] |= uint8_t(1u << (I % 8));
}

bool readableInPlace(uint64_t Address, uint64_t Pages) {
  uint8_t *Bits = inArena(Address, Pages * PageBytes) ? currentBits() : nullptr;
  if (!Bits)
    return false;
  for (uint64_t I = (Address - ArenaBase) / PageBytes, End = I + Pages; I < End; I++)
    if (!(Bits[I / 8] & (1u << (I % 8))))
      return false;
  return true;
}

} // namespace popcorn
