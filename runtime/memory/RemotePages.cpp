//===- RemotePages.cpp - A remote node's pages go home --------------------===//
//
// What a remote node wrote goes back to home: with the thread, before a
// system call that may show memory shared with other processes to them,
// before the program changes a range's protection.  And what home mapped
// or unmapped at the node's request changes what the node holds.
//
//===----------------------------------------------------------------------===//
#include "memory/RemotePages.h"
#include "memory/RemotePageSets.h"
#include "state/NodeFailure.h"

namespace popcorn {

void touchPages(uint64_t Address, uint64_t Bytes, bool Write) {
  if (!Bytes)
    return;
  for (uint64_t A = pageDown(Address); A < Address + Bytes; A += PageBytes) {
    if (rangeOf(A) < 0)
      continue;
    auto *P = reinterpret_cast<volatile uint8_t *>(A < Address ? Address : A);
    uint8_t V = *P;
    if (Write)
      *P = V;
  }
}

void dropPages(uint64_t Address, uint64_t Bytes) {
  for (uint64_t A = pageDown(Address); A < Address + Bytes; A += PageBytes)
    if (int R = rangeOf(A); R >= 0)
      forgetPage(R, A);
  sys::reserve(pageDown(Address), pageUp(Address + Bytes) - pageDown(Address));
}

namespace {
void setFreshness(uint64_t Address, uint64_t Bytes, bool Fresh) {
  NodeState &N = node();
  for (uint64_t A = pageDown(Address); A < Address + Bytes; A += PageBytes)
    if (int R = rangeOf(A); R >= 0) {
      PageBit F = bitOf(N.FreshBits, R, A);
      *F.Byte = Fresh ? uint8_t(*F.Byte | F.Mask) : uint8_t(*F.Byte & ~F.Mask);
      N.AnyFresh |= Fresh;
    }
}
} // namespace

void takeFreshRange(uint64_t Address, uint64_t Bytes) {
  // A small one is mapped writable at once, every page here and written:
  // malloc maps and unmaps groups of a few pages all the time, and each
  // would otherwise fault at its first touch and page by page as its
  // stream's window grows (a signal and an mprotect, 10 us here, against
  // none at home).
  constexpr uint64_t MaxWritableAtOnce = 64 * 1024;
  NodeState &N = node();
  int R = Bytes <= MaxWritableAtOnce ? rangeOf(Address) : -1;
  if (R < 0 || !N.Shared[R].contains(Address + Bytes - 1) || !roomForPages(Bytes / PageBytes)) {
    dropPages(Address, Bytes);
    setFreshness(Address, Bytes, true);
    return;
  }
  for (uint64_t A = Address; A < Address + Bytes; A += PageBytes)
    forgetPage(R, A);
  long Map = sys::call6(sys::Mmap, long(Address), long(Bytes), sys::ProtReadWrite,
                        sys::MapPrivateAnonymous | sys::MapFixed, -1, 0);
  if (sys::failed(Map))
    failNode("no memory for a mapping");
  for (uint64_t A = Address; A < Address + Bytes; A += PageBytes) {
    PageBit Present = bitOf(N.PresentBits, R, A);
    *Present.Byte |= Present.Mask;
    N.PresentList[N.PresentCount++] = A;
    noteWritten(R, A);
  }
  // Still fresh: home has them zero, so one that is zero still when the
  // thread leaves or the program protects it is dropped, not sent.
  setFreshness(Address, Bytes, true);
}

namespace {
// Page A of range R, made here for a fresh mapping (RemotePages.h:
// takeFreshRange), goes if it is zero still: home has it so.
bool dropIfStillZero(int R, uint64_t A, ForgottenRun &Run) {
  if (!isFresh(R, A) || !isPresent(R, A))
    return false;
  const uint64_t *Words = reinterpret_cast<const uint64_t *>(A);
  for (unsigned I = 0; I < PageBytes / 8; I++)
    if (Words[I])
      return false;
  forgetPage(R, A);
  Run.add(A);
  return true;
}
} // namespace

namespace {
// Written pages sent home ahead of the thread: in runs of consecutive
// ones (PageData), and those apart from each other in sets (PageSet).
struct WrittenRun {
  PageRunMessage Run = {0, 0, 0};
  PageSetMessage Set = {0, 0};
  uint64_t SetAddress[MaxPagesPerRun];
  void add(uint64_t A) {
    if (Run.Pages && Run.Address + Run.Pages * PageBytes == A && Run.Pages < MaxPagesPerRun) {
      Run.Pages++;
      return;
    }
    endRun();
    Run = {A, 1, 0};
  }
  // The next page added starts a run: a run of one joins the set.
  void endRun() {
    if (Run.Pages == 1) {
      SetAddress[Set.Count++] = Run.Address;
      if (Set.Count == MaxPagesPerRun)
        sendSet();
    } else if (Run.Pages && !node().HomeLink.send2(MessageType::PageData, &Run, sizeof Run,
                                                   reinterpret_cast<void *>(Run.Address),
                                                   Run.Pages * PageBytes)) {
      lostHome();
    }
    Run.Pages = 0;
  }
  void sendSet() {
    static_assert(2 + MaxPagesPerRun <= Channel::MaxPayloadParts, "a set is one message");
    SendPart Parts[2 + MaxPagesPerRun] = {{&Set, sizeof Set},
                                          {SetAddress, Set.Count * sizeof SetAddress[0]}};
    for (uint32_t I = 0; I < Set.Count; I++)
      Parts[2 + I] = {reinterpret_cast<void *>(SetAddress[I]), PageBytes};
    if (Set.Count && !node().HomeLink.sendGathered(MessageType::PageSet, Parts, 2 + Set.Count))
      lostHome();
    Set.Count = 0;
  }
  // Everything added, home's now.
  void send() {
    endRun();
    sendSet();
  }
};
} // namespace

void returnPages(uint64_t Address, uint64_t Bytes) {
  uint64_t Low = pageDown(Address), High = pageUp(Address + Bytes);
  // What the thread wrote there goes home first, while the program may
  // still write it there: home takes it back through its kernel.  A page
  // made here and zero still needs no message.
  ForgottenRun Gone;
  WrittenRun Written;
  for (uint64_t A = Low; A < High; A += PageBytes) {
    int R = rangeOf(A);
    if (R < 0 || !isPresent(R, A) || dropIfStillZero(R, A, Gone) || !stillWritten(A))
      Written.endRun();
    else
      Written.add(A);
  }
  Written.send();
  // Then none is here or fresh: each is asked for again, and home's
  // answer says whether the program may read it or write it.
  for (uint64_t A = Low; A < High; A += PageBytes) {
    int R = rangeOf(A);
    if (R < 0)
      continue;
    if (isPresent(R, A))
      Gone.add(A);
    forgetPage(R, A);
  }
  Gone.close();
}

namespace {
// Sends home the bytes of page A that differ from its twin.
void sendDiff(uint64_t A, const uint8_t *Twin) {
  NodeState &N = node();
  const uint8_t *Page = reinterpret_cast<const uint8_t *>(A);
  PageDiffMessage M = {A, 0, 0};
  uint32_t Used = sizeof M;
  for (uint32_t I = 0; I < PageBytes;) {
    if (Page[I] == Twin[I]) {
      I++;
      continue;
    }
    uint32_t End = I + 1;
    while (End < PageBytes && Page[End] != Twin[End])
      End++;
    DiffSegment Segment = {uint16_t(I), uint16_t(End - I)};
    __builtin_memcpy(N.Diff + Used, &Segment, sizeof Segment);
    __builtin_memcpy(N.Diff + Used + sizeof Segment, Page + I, End - I);
    Used += sizeof Segment + (End - I);
    M.Segments++;
    I = End;
  }
  __builtin_memcpy(N.Diff, &M, sizeof M);
  if (M.Segments && !N.HomeLink.send(MessageType::PageDiff, N.Diff, Used))
    lostHome();
}
} // namespace

bool inMapSharedPage(uint64_t A) {
  touchPages(A, 4, false);
  int R = rangeOf(pageDown(A));
  return R >= 0 && isMapShared(R, pageDown(A));
}

void syncMapSharedPages() {
  NodeState &N = node();
  if (!N.AnyMapShared)
    return;
  N.AnyMapShared = false;
  auto MapShared = [](uint64_t A, int &R) {
    R = rangeOf(A);
    return R >= 0 && isMapShared(R, A);
  };
  // The bytes the thread changed, where a twin says which; whole pages
  // past the twins.  All go before the pages are forgotten below.
  int R;
  for (uint32_t I = 0; I < N.TwinCount; I++) {
    uint64_t A = N.TwinAddress[I];
    if (MapShared(A, R) && stillWritten(A)) {
      sendDiff(A, N.Twins + uint64_t(I) * PageBytes);
      setBit(N.DirtyBits, R, A, false);
    }
  }
  N.TwinCount = 0;
  WrittenRun Written;
  for (uint64_t I = 0; I < N.MapSharedCount; I++) {
    uint64_t A = N.MapSharedList[I];
    if (MapShared(A, R) && stillWritten(A))
      Written.add(A);
    else
      Written.endRun();
  }
  Written.send();
  ForgottenRun Gone;
  for (uint64_t I = 0; I < N.MapSharedCount; I++) {
    uint64_t A = N.MapSharedList[I];
    if (!MapShared(A, R))
      continue;
    forgetPage(R, A);
    Gone.add(A);
  }
  Gone.close();
  N.MapSharedCount = 0;
}

void sendWrittenPages() {
  NodeState &N = node();
  // In runs of consecutive ones: in the order they were first written, so
  // a thread that wrote through memory in order sends few long runs.  Not
  // those made here that are zero still.
  compactDirtyList();
  ForgottenRun Zero;
  bool Dropped = false;
  for (uint64_t I = 0; N.AnyFresh && I < N.DirtyCount; I++)
    Dropped |= dropIfStillZero(rangeOf(N.DirtyList[I]), N.DirtyList[I], Zero);
  Zero.close();
  if (Dropped)
    compactDirtyList();
  WrittenRun Written; // the list holds each page still written once
  for (uint64_t I = 0; I < N.DirtyCount; I++)
    Written.add(N.DirtyList[I]);
  Written.send();
}

} // namespace popcorn
