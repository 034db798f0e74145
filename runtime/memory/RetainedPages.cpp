//===- RetainedPages.cpp - Pages a node keeps between trips ---------------===//
#include "memory/RetainedPages.h"
#include "memory/ReadablePages.h"
#include "memory/WrittenPages.h"
#include "state/NodeState.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

// Per node: the pages it holds, in a list (to check them all) and an index
// by address into it.  Addresses are in the arena or in one of the shared
// ranges home named in its greeting; both tables are reserved whole and
// committed as they are touched.
struct HeldPages {
  uint64_t *Address, *Hash; // a stale page's address has its low bit set
  uint64_t Count;
  uint64_t Low, High; // the span of the list's pages
  uint32_t *SlotOfArenaPage; // list index + 1, 0: not held
  // The node got more than home hashes, or the kernel stopped telling
  // which pages home wrote: it forgets them all at its next trip.
  bool MustForgetAll;
  // Access: whether the node got a page read-only since it last forgot
  // all, and the counts of mapping calls when the thread last went there.
  bool HoldsReadOnly;
  uint64_t MappingChangesSeen, ReadOnlyMadeSeen;
};

// Home's records of all nodes, and when to protect home's pages so that
// the kernel tells which it wrote (WrittenPages.h).  Protection costs a
// fault at the first write to each page after it (at home, or as a
// node's writes come back): it pays when nodes hold many pages home does
// not write, not for a few (hashing 4,096 costs 1.6 ms a departure, and
// bench/hashtab.c writes all 32,768 pages of its table at home while its
// node holds 3,500: 15% more time), nor when home rewrites nearly all of
// them (bench/sieve.c: 14% more).  So home protects once a node holds
// more than ProtectAbove pages (it is then Armed: every departure asks the
// kernel), and after a departure that found most of a node's pages stale
// it skips protecting for 1, 2, then 4 returns: meanwhile every page home
// writes stays written, and a node whose pages were all rewritten forgets
// them all, as it would anyway.
struct Retained {
  HeldPages Nodes[MaxNodes];
  bool Armed, ProtectedAtReturn;
  uint32_t SkippedReturns, ReturnsToSkip;
};
constexpr uint64_t ProtectAbove = 4096;

constexpr uint64_t ArenaPages = ArenaBytes / PageBytes;
// Hashing a page costs 0.4-1.3 us at every departure, whether or not the
// node touches it again: past this many (64 MiB), a node forgets them all
// instead and starts again from the pages of its next trip.  Past it, the
// pages the node gets are not hashed either (0.4 us each: a program that
// moves 75 MB each way per trip spent 6% of its time there for nothing).
// Where the kernel tracks home's writes, a node keeps as many as it gets.
constexpr uint64_t MaxHashed = 16384;

Retained *retained() {
  NodeState &N = node();
  if (!N.Held)
    N.Held = sys::mapPrivate(sizeof(Retained));
  return static_cast<Retained *>(N.Held);
}

// Whether the kernel tells which pages home wrote (else they are hashed).
bool armed() {
  Retained *R = retained();
  return R && R->Armed && tracksWrites();
}

HeldPages *heldBy(int Node) {
  Retained *R = retained();
  if (!R)
    return nullptr;
  HeldPages &H = R->Nodes[Node];
  if (!H.Address) {
    H.Address = reinterpret_cast<uint64_t *>(sys::mapPrivate(ArenaPages * 8));
    H.Hash = reinterpret_cast<uint64_t *>(sys::mapPrivate(ArenaPages * 8));
    H.SlotOfArenaPage = reinterpret_cast<uint32_t *>(sys::mapPrivate(ArenaPages * 4));
    if (!H.Address || !H.Hash || !H.SlotOfArenaPage)
      return H.Address = nullptr, nullptr;
    H.Low = ~uint64_t(0); // empty, as clear() leaves it
  }
  return &H;
}

// Every node's record that has pages (some may need forgetting).
template <class Visitor> void forEachRecord(Visitor Visit) {
  NodeState &N = node();
  for (int Node = 0; N.Held && Node < MaxNodes; Node++) {
    HeldPages &H = static_cast<Retained *>(N.Held)->Nodes[Node];
    if (H.Address && (H.Count || H.MustForgetAll))
      Visit(Node, H);
  }
}

uint32_t &slotOf(HeldPages &H, uint64_t Address) {
  return H.SlotOfArenaPage[(Address - ArenaBase) / PageBytes];
}

void drop(HeldPages &H, uint64_t I) {
  slotOf(H, H.Address[I]) = 0;
  if (--H.Count != I) {
    H.Address[I] = H.Address[H.Count];
    H.Hash[I] = H.Hash[H.Count];
    slotOf(H, H.Address[I]) = uint32_t(I + 1);
  }
}

// Home's record of H: empty.
void clear(HeldPages &H) {
  for (uint64_t I = 0; I < H.Count; I++)
    slotOf(H, H.Address[I]) = 0;
  H.Count = H.High = 0;
  H.Low = ~uint64_t(0);
  H.MustForgetAll = H.HoldsReadOnly = false;
}

// Marks H's pages in [Low, High) stale.  By the list when it is shorter.
void markStale(HeldPages &H, uint64_t Low, uint64_t High) {
  Low = Low > H.Low ? Low : H.Low;
  High = High < H.High ? High : H.High;
  if (Low >= High)
    return;
  if ((High - Low) / PageBytes > H.Count) {
    for (uint64_t I = 0; I < H.Count; I++)
      if (H.Address[I] >= Low && H.Address[I] < High)
        H.Address[I] |= 1;
    return;
  }
  for (uint64_t At = Low; At < High; At += PageBytes)
    if (uint32_t Slot = slotOf(H, At))
      H.Address[Slot - 1] |= 1;
}

uint64_t staleCount(const HeldPages &H) {
  uint64_t Stale = 0;
  for (uint64_t I = 0; I < H.Count; I++)
    Stale += H.Address[I] & 1;
  return Stale;
}

// The span of the pages of the records Pick(Node) chooses, and the most
// pages one of them holds.
struct Span {
  uint64_t Low = ~uint64_t(0), High = 0, Most = 0;
};
template <class Picker> Span spanOf(Picker Pick) {
  Span S;
  forEachRecord([&](int Node, HeldPages &H) {
    if (Pick(Node) && H.Count) {
      S.Low = H.Low < S.Low ? H.Low : S.Low;
      S.High = H.High > S.High ? H.High : S.High;
      S.Most = H.Count > S.Most ? H.Count : S.Most;
    }
  });
  return S;
}

// Marks stale, in the records Pick(Node) chooses, the pages home wrote
// since the last protection (the kernel's answer, one scan for all);
// false if the kernel could not tell, and then every node forgets all.
template <class Picker> bool markWritten(Picker Pick) {
  Span S = spanOf(Pick);
  if (S.Low >= S.High || forEachWrittenRun(S.Low, S.High, [&](uint64_t Start, uint64_t End) {
        forEachRecord([&](int Node, HeldPages &H) {
          if (Pick(Node))
            markStale(H, Start, End);
        });
      }))
    return true;
  forEachRecord([](int, HeldPages &H) { H.MustForgetAll = true; });
  return false;
}

// The node holds more than MaxHashed pages, or pages whose access may
// have changed: it forgets them all.
bool forgetAll(HeldPages &H, Channel &Link) {
  clear(H);
  return Link.send(MessageType::ForgetAll, nullptr, 0);
}

// A node that gets more pages on one trip than home hashes: home asks the
// kernel from now on, rather than have the node forget them all at its
// next trip (bench/rescan.c's node fetched its 96 MiB table twice).  While
// the thread is away, home writes no page of the program's but those the
// node sends back (which it then holds as they are) and those of mapping
// calls (marked stale as they come), so the pages Node holds are still
// home's; the other nodes' may not be.  Protected: the span of the pages
// held and as much again above it, where a thread going through memory
// in order takes the rest of this trip's (a page it takes outside counts
// as written at the next departure, as one home wrote).  Not the whole
// arena: each page home writes after a protection costs it a fault.
bool armWhileAway(int Node) {
  Retained *R = retained();
  if (!R || R->Armed || writeTrackingOff())
    return false;
  Span All = spanOf([](int) { return true; });
  uint64_t Above = All.High + (All.High - All.Low), ArenaEnd = ArenaBase + ArenaBytes;
  if (All.Low >= All.High || !protectWrittenPages(All.Low, Above < ArenaEnd ? Above : ArenaEnd))
    return false;
  forEachRecord([Node](int Other, HeldPages &H) { H.MustForgetAll |= Other != Node; });
  R->Armed = R->ProtectedAtReturn = true;
  return true;
}

constexpr uint64_t rotl(uint64_t X, int R) { return X << R | X >> (64 - R); }

} // namespace

uint64_t hashPage(const uint8_t *Bytes) {
  // Four independent lanes of xxHash64's round, folded at the end.
  constexpr uint64_t P1 = 0x9e3779b185ebca87ull, P2 = 0xc2b2ae3d27d4eb4full;
  uint64_t Lane[4] = {P1, P2, ~P1, ~P2};
  for (unsigned I = 0; I < PageBytes; I += 32)
    for (unsigned L = 0; L < 4; L++) {
      uint64_t W;
      __builtin_memcpy(&W, Bytes + I + 8 * L, 8);
      Lane[L] = rotl(Lane[L] + W * P2, 31) * P1;
    }
  uint64_t H = rotl(Lane[0], 1) + rotl(Lane[1], 7) + rotl(Lane[2], 12) + rotl(Lane[3], 18);
  H ^= H >> 33;
  H *= P2;
  return H ^ H >> 29;
}

void notePageHeld(int Node, uint64_t Address, const uint8_t *Bytes) {
  // Only arena pages are kept: the heap, mappings, stacks and object
  // stacks the thread works on.  A node forgets the few pages of the data
  // segments at every return.
  HeldPages *H = inArena(Address, PageBytes) ? heldBy(Node) : nullptr;
  if (!H || H->MustForgetAll)
    return;
  bool Tracked = armed();
  uint32_t &Slot = slotOf(*H, Address);
  if (!Slot) {
    if (H->Count == (Tracked ? ArenaPages : MaxHashed)) {
      if (Tracked || !armWhileAway(Node)) {
        H->MustForgetAll = true;
        return;
      }
      Tracked = true;
    }
    Slot = uint32_t(++H->Count);
    H->Low = Address < H->Low ? Address : H->Low;
    H->High = Address + PageBytes > H->High ? Address + PageBytes : H->High;
  }
  H->Address[Slot - 1] = Address; // not stale: the node has these bytes
  H->Hash[Slot - 1] = Tracked ? 0 : hashPage(Bytes);
}

namespace {

// Hashes home's copies of the pages at Index[0..Count) of H's list,
// read through the kernel into the run buffer (a page the program unmapped
// ends the read there, and counts as changed: the next read starts after
// it).  A changed page's entry is marked in its address's low bit.
void checkThroughKernel(HeldPages &H, const uint64_t *Index, uint64_t Count) {
  NodeState &N = node();
  sys::IoVec Program[MaxPagesPerRun];
  for (uint64_t First = 0; First < Count;) {
    uint64_t Batch = Count - First;
    for (uint64_t I = 0; I < Batch; I++)
      Program[I] = {reinterpret_cast<void *>(H.Address[Index[First + I]]), PageBytes};
    long Read = sys::copyOwnMemory(sys::ProcessVmReadv, {N.PageRun, Batch * PageBytes}, Program,
                                   Batch);
    uint64_t Good = Read > 0 ? uint64_t(Read) / PageBytes : 0;
    for (uint64_t I = 0; I < Good; I++) {
      uint64_t &Address = H.Address[Index[First + I]];
      noteReadable(Address, 1);
      if (hashPage(N.PageRun + I * PageBytes) != H.Hash[Index[First + I]])
        Address |= 1;
    }
    if (Good < Batch)
      H.Address[Index[First + Good++]] |= 1;
    First += Good;
  }
}

// The stale pages of H, Stale of them, are dropped from it and named to
// the node; all of them if most are stale: the node then forgets its pages
// in the order they came, in runs, where a list scrambled by drop costs it
// a call a page (18,000 pages: 19 against 3 ms).
bool sendStale(HeldPages &H, uint64_t Stale, Channel &Link) {
  if (2 * Stale > H.Count)
    return forgetAll(H, Link);
  uint64_t Forget[512];
  uint64_t Pending = 0;
  for (uint64_t I = 0; I < H.Count;) {
    if (!(H.Address[I] & 1)) {
      I++;
      continue;
    }
    H.Address[I] &= ~uint64_t(1);
    Forget[Pending++] = H.Address[I];
    drop(H, I); // the last entry moves to I: look at it next
    if (Pending == sizeof Forget / sizeof Forget[0]) {
      if (!Link.send(MessageType::Forget, Forget, sizeof Forget))
        return false;
      Pending = 0;
    }
  }
  return !Pending || Link.send(MessageType::Forget, Forget, uint32_t(Pending * 8));
}

} // namespace

void forgetAllHeld() {
  forEachRecord([](int, HeldPages &H) { clear(H); });
  if (Retained *R = node().Held ? retained() : nullptr)
    R->Armed = R->ProtectedAtReturn = false, R->SkippedReturns = R->ReturnsToSkip = 0;
}

void forgetHeld(int Node) {
  forEachRecord([Node](int Other, HeldPages &H) {
    if (Other == Node)
      clear(H);
  });
}

void notePagesChanged(uint64_t Address, uint64_t Bytes) {
  uint64_t End = Address + Bytes < Address ? ~uint64_t(0) : Address + Bytes;
  forEachRecord([&](int, HeldPages &H) { markStale(H, pageDown(Address), End); });
}

void noteThreadHome(int From) {
  // From learnt of home's writes before the trip and brought its own; the
  // others learn of both now, before the protection forgets them.
  Retained *R = retained();
  auto Others = [From](int Node) { return Node != From; };
  if (!R || writeTrackingOff() || (armed() && !markWritten(Others)))
    return;
  Span All = spanOf([](int) { return true; });
  if (All.Low >= All.High || (!R->Armed && All.Most <= ProtectAbove))
    return;
  if (R->SkippedReturns < R->ReturnsToSkip) {
    R->SkippedReturns++;
    return;
  }
  R->SkippedReturns = 0;
  R->ProtectedAtReturn = protectWrittenPages(All.Low, All.High);
  if (!R->ProtectedAtReturn) {
    forEachRecord([](int, HeldPages &H) { H.MustForgetAll = true; });
    return;
  }
  // Armed now: the other nodes' copies may be stale with writes home made
  // before, which no hash will check any more.
  if (!R->Armed)
    forEachRecord([From](int Node, HeldPages &H) { H.MustForgetAll |= Node != From; });
  R->Armed = true;
}

void noteReadOnlyHeld(int Node) {
  if (HeldPages *H = heldBy(Node))
    H->HoldsReadOnly = true;
}

bool forgetChangedPages(int Node, Channel &Link) {
  NodeState &N = node();
  HeldPages *H = heldBy(Node);
  if (!H)
    return true;
  // A node maps a page it holds as home served it, writable or not; its
  // content may be the same and its access not.  Calls that make a page
  // read-only are rare (malloc's make memory writable or inaccessible,
  // and a page home cannot read any more is found below); any mapping
  // call may make writable a page the node holds read-only.
  bool AccessChanged = H->ReadOnlyMadeSeen != N.ReadOnlyMade ||
                       (H->HoldsReadOnly && H->MappingChangesSeen != N.MappingChanges);
  H->ReadOnlyMadeSeen = N.ReadOnlyMade;
  H->MappingChangesSeen = N.MappingChanges;
  if (!H->Count && !H->MustForgetAll)
    return true;
  if (H->MustForgetAll || AccessChanged)
    return forgetAll(*H, Link);
  if (armed()) {
    if (!markWritten([Node](int Other) { return Other == Node; }))
      return forgetAll(*H, Link);
    Retained &R = *retained();
    uint64_t Stale = staleCount(*H);
    if (R.ProtectedAtReturn) {
      bool Paid = 2 * Stale <= H->Count;
      R.ReturnsToSkip = Paid ? 0 : R.ReturnsToSkip ? 2 * R.ReturnsToSkip : 1;
      R.ReturnsToSkip = R.ReturnsToSkip > 4 ? 4 : R.ReturnsToSkip;
      R.ProtectedAtReturn = false;
    }
    return sendStale(*H, Stale, Link);
  }
  // Hashed: home's copies, in place where they cannot fault (0.4 us a
  // page here), else through the kernel (1.3 us).
  uint64_t Index[MaxPagesPerRun], Queued = 0;
  for (uint64_t I = 0; I < H->Count; I++) {
    if (H->Address[I] & 1)
      continue;
    if (readableInPlace(H->Address[I], 1)) {
      if (hashPage(reinterpret_cast<const uint8_t *>(H->Address[I])) != H->Hash[I])
        H->Address[I] |= 1;
      continue;
    }
    Index[Queued++] = I;
    if (Queued == MaxPagesPerRun) {
      checkThroughKernel(*H, Index, Queued);
      Queued = 0;
    }
  }
  checkThroughKernel(*H, Index, Queued);
  return sendStale(*H, staleCount(*H), Link);
}

} // namespace popcorn
