//===- RemotePageSets.h - Which of home's pages a remote node holds -*- C++ -*-===//
//
// A remote node's bookkeeping of home's pages, per shared range (state/
// NodeState.h): a bit per page for each of present, written (dirty),
// fresh, read-only, shared with other processes (map-shared) and once
// held (had); and lists of the pages present and written, in the order
// they came.  The page-fault handler (RemoteFaults.cpp) and the pages'
// ways home (RemotePages.h) keep them; the node's role (nodes/) clears
// them between trips.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_MEMORY_REMOTEPAGESETS_H
#define POPCORN_RUNTIME_MEMORY_REMOTEPAGESETS_H

#include "state/NodeState.h"
#include "support/Syscall.h"

namespace popcorn {

/// Entries of the present and dirty lists (pages: 16 GiB).
inline constexpr uint64_t ListCapacity = uint64_t(1) << 22;
/// Shared pages written between two system calls that are sent home as
/// diffs; past these (16 MiB), whole.
inline constexpr uint32_t MaxTwins = 4096;

/// The shared range that holds A, or -1.
inline int rangeOf(uint64_t A) {
  NodeState &N = node();
  for (uint32_t R = 0; R < N.SharedCount; R++)
    if (N.Shared[R].contains(A))
      return int(R);
  return -1;
}

/// Page A's bit in range R's bitmap of a kind (Bits: NodeState::PresentBits, ...).
struct PageBit {
  uint8_t *Byte;
  uint8_t Mask;
};

inline PageBit bitOf(uint8_t *const *Bits, int R, uint64_t A) {
  uint64_t I = (A - node().Shared[R].Low) / PageBytes;
  return {&Bits[R][I / 8], uint8_t(1u << (I % 8))};
}

inline void setBit(uint8_t *const *Bits, int R, uint64_t A, bool Set) {
  PageBit P = bitOf(Bits, R, A);
  *P.Byte = Set ? uint8_t(*P.Byte | P.Mask) : uint8_t(*P.Byte & ~P.Mask);
}

inline bool hasBit(uint8_t *const *Bits, int R, uint64_t A) {
  PageBit P = bitOf(Bits, R, A);
  return *P.Byte & P.Mask;
}

inline bool isPresent(int R, uint64_t A) { return hasBit(node().PresentBits, R, A); }
inline bool isFresh(int R, uint64_t A) { return hasBit(node().FreshBits, R, A); }
inline bool isReadOnly(int R, uint64_t A) { return hasBit(node().ReadOnlyBits, R, A); }
inline bool isMapShared(int R, uint64_t A) { return hasBit(node().MapSharedBits, R, A); }

/// Whether the present list has room for Count more pages, once stale
/// entries are gone if need be.
bool roomForPages(uint64_t Count);
/// Keeps in the present list only the pages still here.
void compactPresentList();
/// Keeps in the dirty list one entry per page still written.
void compactDirtyList();

/// Page A of range R, here and writable, goes home with the thread.
void noteWritten(int R, uint64_t A);
/// Page A, here and read-only, becomes writable: it goes home with the
/// thread.
void markWritten(int R, uint64_t A);
/// Whether page A is here and written (not forgotten since it was).
bool stillWritten(uint64_t A);
/// How many of the dirty list's entries from I on name pages still
/// written and consecutive to the first (which is), at most MaxPagesPerRun.
uint32_t writtenRun(uint64_t I);
/// Page A of range R came with the thread: here and written, as if
/// fetched and written to.
void takeWrittenPage(int R, uint64_t A);

/// Page A of range R is no longer here.
void forgetPage(int R, uint64_t A);
/// Home's Forget message of Bytes bytes: the pages it names changed.
void forgetChanged(uint32_t Bytes);
/// Forgets every page kept from earlier trips; or, OnlyClean, those this
/// trip has not written (the kernel will not map one more page).
void forgetAllKept(bool OnlyClean = false);
/// The thread has left with every page it wrote: the arena's pages stay,
/// read-only and clean again; the others go.
void keepArenaPages();
/// Every page the thread wrote went home, for home's other threads to
/// run (signals/HeldThreads.h): none stays here, nor is fresh.
void keepNoPages();

//// Pages made inaccessible in runs of consecutive ones: one call per run.
struct ForgottenRun {
  uint64_t Low = 0, High = 0;
  void add(uint64_t A) {
    if (A == High) {
      High += PageBytes;
      return;
    }
    close();
    Low = A;
    High = A + PageBytes;
  }
  void close() {
    if (High)
      sys::call6(sys::Mprotect, long(Low), long(High - Low), sys::ProtNone);
    High = 0;
  }
};

} // namespace popcorn

#endif
