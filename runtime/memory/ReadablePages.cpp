//===- ReadablePages.cpp - Home's pages it may read in place --------------===//
#include "memory/ReadablePages.h"
#include "state/NodeState.h"
#include "support/AddressMap.h"
#include "support/Syscall.h"
#include <pthread.h>

extern "C" {
void __tl_lock(void);   // musl's lock of its list of threads
void __tl_unlock(void);
}

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

// The first words of musl's struct pthread, the same on both ISAs (Part 1
// of its layout, which libc-patches/common/0003-one-pthread-layout.patch
// keeps in place).
struct ListedThread {
  ListedThread *Self;
  void *Dtv;
  ListedThread *Prev, *Next;
};

// Whether the program runs one thread, this one.  musl's list of threads
// holds the program's and no others: not the runtime's control thread (a
// raw clone), nor qemu-user's own, which /proc/self/task lists with the
// program's when home runs emulated.  A thread on its way out holds the
// list's lock until the kernel has ended it (musl gives clone the lock as
// the word to clear at exit), so under the lock the list is exact.
bool programRunsOneThread() {
  auto *Self = reinterpret_cast<ListedThread *>(pthread_self());
  __tl_lock();
  bool Alone = Self->Next == Self;
  __tl_unlock();
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
