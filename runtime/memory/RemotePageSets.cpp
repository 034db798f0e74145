//===- RemotePageSets.cpp - Which of home's pages a remote node holds -----===//
#include "memory/RemotePageSets.h"
#include "state/NodeFailure.h"

namespace popcorn {
namespace {
constexpr uint64_t MaxKeptRuns = 16384; // runs of pages kept between trips (keepArenaPages)
} // namespace

// Keeps in the dirty list one entry per page still written, where it was
// first written.  A page dropped (unmapped, or its range mapped again) and
// written again has two entries, and one that was only dropped, a stale
// one: malloc maps and unmaps the same ranges all the time.
void compactDirtyList() {
  NodeState &N = node();
  uint64_t Kept = 0;
  for (uint64_t I = 0; I < N.DirtyCount; I++) {
    uint64_t A = N.DirtyList[I];
    int R = rangeOf(A);
    if (R < 0)
      continue;
    PageBit D = bitOf(N.DirtyBits, R, A);
    if (*D.Byte & D.Mask) {
      *D.Byte &= uint8_t(~D.Mask); // a later entry of A is then skipped
      N.DirtyList[Kept++] = A;
    }
  }
  for (uint64_t I = 0; I < Kept; I++) {
    PageBit D = bitOf(N.DirtyBits, rangeOf(N.DirtyList[I]), N.DirtyList[I]);
    *D.Byte |= D.Mask;
  }
  N.DirtyCount = Kept;
}

// Whether the present list has room for Count more pages, once stale
// entries are gone if need be.
bool roomForPages(uint64_t Count) {
  NodeState &N = node();
  if (N.PresentCount + Count > N.ListCapacity)
    compactPresentList();
  return N.PresentCount + Count <= N.ListCapacity;
}

// Page A, here and writable, goes home with the thread.
void noteWritten(int R, uint64_t A) {
  NodeState &N = node();
  if (N.DirtyCount == N.ListCapacity)
    compactDirtyList();
  if (N.DirtyCount == N.ListCapacity)
    failNode("more pages written than a thread may take back home");
  PageBit Dirty = bitOf(N.DirtyBits, R, A);
  *Dirty.Byte |= Dirty.Mask;
  N.DirtyList[N.DirtyCount++] = A;
  // Shared with other processes: its bytes as they came, not yet written.
  if (isMapShared(R, A) && N.TwinCount < MaxTwins) {
    __builtin_memcpy(N.Twins + uint64_t(N.TwinCount) * PageBytes,
                     reinterpret_cast<const void *>(A), PageBytes);
    N.TwinAddress[N.TwinCount++] = A;
  }
}

// Page A, here and read-only, becomes writable: it goes home with the
// thread.
void markWritten(int R, uint64_t A) {
  sys::call6(sys::Mprotect, long(A), PageBytes, sys::ProtReadWrite);
  noteWritten(R, A);
}

// Whether page A is here and written (not forgotten since it was).
bool stillWritten(uint64_t A) {
  int R = rangeOf(A);
  if (R < 0)
    return false;
  PageBit Dirty = bitOf(node().DirtyBits, R, A);
  return *Dirty.Byte & Dirty.Mask;
}

// How many of the DirtyList's entries from I on name pages still written
// and consecutive to the first (which is), at most MaxPagesPerRun.
uint32_t writtenRun(uint64_t I) {
  NodeState &N = node();
  uint64_t A = N.DirtyList[I];
  uint32_t Pages = 1;
  while (I + Pages < N.DirtyCount && Pages < MaxPagesPerRun &&
         N.DirtyList[I + Pages] == A + Pages * PageBytes && stillWritten(A + Pages * PageBytes))
    Pages++;
  return Pages;
}

// Page A of shared range R came with the thread: here and written, as if
// fetched and written to.
void takeWrittenPage(int R, uint64_t A) {
  NodeState &N = node();
  if (!isPresent(R, A)) {
    if (!roomForPages(1))
      failNode("more pages than a thread may take away from home");
    PageBit Present = bitOf(N.PresentBits, R, A);
    *Present.Byte |= Present.Mask;
    N.PresentList[N.PresentCount++] = A;
  }
  PageBit Dirty = bitOf(N.DirtyBits, R, A);
  if (!(*Dirty.Byte & Dirty.Mask))
    markWritten(R, A);
}

// Page A of shared range R is no longer here.
void forgetPage(int R, uint64_t A) {
  NodeState &N = node();
  PageBit P = bitOf(N.PresentBits, R, A), D = bitOf(N.DirtyBits, R, A);
  *P.Byte &= uint8_t(~P.Mask);
  *D.Byte &= uint8_t(~D.Mask);
  setBit(N.FreshBits, R, A, false);
  setBit(N.ReadOnlyBits, R, A, false);
  setBit(N.MapSharedBits, R, A, false);
  setBit(N.HadBits, R, A, false);
}

namespace {
// Once the thread has left, home may write any page: none is fresh.
void forgetFreshPages() {
  NodeState &N = node();
  if (!N.AnyFresh)
    return;
  for (uint32_t R = 0; R < N.SharedCount; R++)
    __builtin_memset(N.FreshBits[R], 0, (N.Shared[R].High - N.Shared[R].Low) / PageBytes / 8 + 1);
  N.AnyFresh = false;
}
} // namespace

// Keeps in the present list only the pages still here.
void compactPresentList() {
  NodeState &N = node();
  uint64_t Kept = 0;
  for (uint64_t I = 0; I < N.PresentCount; I++) {
    uint64_t A = N.PresentList[I];
    int R = rangeOf(A);
    if (R >= 0 && isPresent(R, A))
      N.PresentList[Kept++] = A;
  }
  N.PresentCount = Kept;
}

namespace {
// The runs of pages here: each is a mapping of its own in the kernel,
// between inaccessible ones.  By whole words of the bitmaps, whose
// memory is whole pages.
uint64_t presentRuns() {
  NodeState &N = node();
  uint64_t Runs = 0;
  for (uint32_t R = 0; R < N.SharedCount; R++) {
    uint64_t Bytes = (N.Shared[R].High - N.Shared[R].Low) / PageBytes / 8 + 1, Before = 0;
    for (uint64_t At = 0; At < Bytes; At += 8) {
      uint64_t Word;
      __builtin_memcpy(&Word, N.PresentBits[R] + At, 8);
      if (Word)
        Runs += uint64_t(__builtin_popcountll(Word & ~(Word << 1 | Before)));
      Before = Word >> 63;
    }
  }
  return Runs;
}
} // namespace

// The thread has left with every page it wrote.  The arena's pages stay,
// read-only and clean again: home names those that change before the
// thread comes back (RetainedPages.h).  The few others (data segments,
// the top of home's stack) are forgotten.  So are all of them when they lie
// in more than MaxKeptRuns runs: each run is a mapping, and a thread that
// reads pages at random over a large table would take the kernel to its
// limit of them (vm.max_map_count, 65,530 by default), where mprotect
// fails; many make every fault and mprotect slower before that.
void keepArenaPages() {
  NodeState &N = node();
  forgetFreshPages();
  for (uint64_t I = 0; I < N.DirtyCount;) {
    if (!stillWritten(N.DirtyList[I])) {
      I++;
      continue;
    }
    uint64_t A = N.DirtyList[I];
    uint32_t Pages = writtenRun(I);
    sys::call6(sys::Mprotect, long(A), long(Pages * PageBytes), sys::ProtRead);
    for (uint32_t P = 0; P < Pages; P++) {
      PageBit D = bitOf(N.DirtyBits, rangeOf(A + P * PageBytes), A + P * PageBytes);
      *D.Byte &= uint8_t(~D.Mask);
    }
    I += Pages;
  }
  N.DirtyCount = 0;
  for (uint64_t I = 0; I < N.PresentCount; I++) {
    uint64_t A = N.PresentList[I];
    if (A < ArenaBase || A >= ArenaBase + ArenaBytes) {
      sys::reserve(A, PageBytes);
      forgetPage(rangeOf(A), A);
    }
  }
  if (N.PresentCount > MaxKeptRuns && presentRuns() > MaxKeptRuns) // no more runs than pages
    forgetAllKept();
  compactPresentList();
  uint64_t Low = N.StackAtHome && N.Away.High == N.HomeStack.High ? N.HomeStack.Low : N.Away.Low;
  sys::reserve(Low, pageDown(N.Away.High) - Low);
}

// Home's Forget: pages whose content changed since this node got them.
// They become inaccessible, not unmapped: the next fetch of one writes
// over its old bytes rather than into a page the kernel has to free now
// and find and clear then (2-3 us a page here).
void forgetChanged(uint32_t Bytes) {
  NodeState &N = node();
  if (Bytes % 8)
    failNode("a malformed list of pages to forget");
  uint64_t Addresses[256];
  ForgottenRun Run;
  for (uint32_t Done = 0; Done < Bytes;) {
    uint32_t Chunk = Bytes - Done < sizeof Addresses ? Bytes - Done : uint32_t(sizeof Addresses);
    if (!N.HomeLink.receivePayload(Addresses, Chunk))
      lostHome();
    for (uint32_t I = 0; I < Chunk / 8; I++) {
      uint64_t A = Addresses[I];
      int R = A % PageBytes ? -1 : rangeOf(A);
      if (R < 0 || !isPresent(R, A))
        continue;
      forgetPage(R, A);
      setBit(N.HadBits, R, A, true);
      Run.add(A);
    }
    Done += Chunk;
  }
  Run.close();
}

// Home's ForgetAll: every page kept from earlier trips (all arena pages,
// in the order they came: runs, mostly) may have changed.  Or, when the
// kernel will not map one more page (OnlyClean), the pages this trip has
// not written, which the thread can fetch again.
void keepNoPages() {
  NodeState &N = node();
  forgetFreshPages();
  forgetAllKept();
  N.DirtyCount = 0;
  compactPresentList();
}

void forgetAllKept(bool OnlyClean) {
  NodeState &N = node();
  ForgottenRun Run;
  for (uint64_t I = 0; I < N.PresentCount; I++) {
    uint64_t A = N.PresentList[I];
    int R = rangeOf(A);
    if (R < 0 || !isPresent(R, A) ||
        (OnlyClean && (hasBit(N.DirtyBits, R, A) || isMapShared(R, A))))
      continue;
    forgetPage(R, A);
    setBit(N.HadBits, R, A, true);
    Run.add(A);
  }
  Run.close();
}

} // namespace popcorn
