//===- RetainedPages.cpp - Pages a node keeps between trips ---------------===//
#include "RetainedPages.h"
#include "NodeState.h"
#include "ReadablePages.h"
#include "Syscall.h"

namespace popcorn {
namespace {

// Per node: the pages it holds, in a list (to check them all) and an index
// by address into it.  Addresses are in the arena or in one of the shared
// ranges home named in its greeting; both tables are reserved whole and
// committed as they are touched.
struct HeldPages {
  uint64_t *Address, *Hash;
  uint64_t Count;
  uint32_t *SlotOfArenaPage; // list index + 1, 0: not held
  bool Overflowed; // the node got more than MaxChecked: none is hashed
  // Access: whether the node got a page read-only since it last forgot
  // all, and the counts of mapping calls when the thread last went there.
  bool HoldsReadOnly;
  uint64_t MappingChangesSeen, ReadOnlyMadeSeen;
};

constexpr uint64_t ArenaPages = ArenaBytes / PageBytes;
// Checking a page costs 0.4-1.3 us at every departure, whether or not the
// node touches it again: past this many (64 MiB), a node forgets them all
// instead and starts again from the pages of its next trip.  Past it, the
// pages the node gets are not hashed either (0.4 us each: a program that
// moves 75 MB each way per trip spent 6% of its time there for nothing).
constexpr uint64_t MaxChecked = 16384;

HeldPages *heldBy(int Node) {
  NodeState &N = node();
  if (!N.Held) {
    N.Held = reinterpret_cast<HeldPages *>(sys::mapPrivate(MaxNodes * sizeof(HeldPages)));
    if (!N.Held)
      return nullptr;
  }
  HeldPages &H = static_cast<HeldPages *>(N.Held)[Node];
  if (!H.Address) {
    H.Address = reinterpret_cast<uint64_t *>(sys::mapPrivate(MaxChecked * 8));
    H.Hash = reinterpret_cast<uint64_t *>(sys::mapPrivate(MaxChecked * 8));
    H.SlotOfArenaPage = reinterpret_cast<uint32_t *>(sys::mapPrivate(ArenaPages * 4));
    if (!H.Address || !H.Hash || !H.SlotOfArenaPage)
      return H.Address = nullptr, nullptr;
  }
  return &H;
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
  H.Count = 0;
  H.Overflowed = H.HoldsReadOnly = false;
}

// The node holds more than MaxChecked pages, or pages whose access may
// have changed: it forgets them all.
bool forgetAll(HeldPages &H, Channel &Link) {
  clear(H);
  return Link.send(MessageType::ForgetAll, nullptr, 0);
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
  if (!H || H->Overflowed)
    return;
  uint32_t &Slot = slotOf(*H, Address);
  if (!Slot) {
    if (H->Count == MaxChecked) {
      H->Overflowed = true;
      return;
    }
    H->Address[H->Count] = Address;
    Slot = uint32_t(++H->Count);
  }
  H->Hash[Slot - 1] = hashPage(Bytes);
}

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

void forgetAllHeld() {
  NodeState &N = node();
  for (int Node = 0; N.Held && Node < MaxNodes; Node++)
    clear(static_cast<HeldPages *>(N.Held)[Node]);
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
  if (!H->Count && !H->Overflowed)
    return true;
  if (H->Overflowed || AccessChanged)
    return forgetAll(*H, Link);
  // First pass: home's copies, in place where they cannot fault (0.4 us
  // a page here), else through the kernel (1.3 us).  A changed page's
  // entry is marked in its address's low bit (addresses are aligned).
  uint64_t Index[MaxPagesPerRun], Queued = 0;
  for (uint64_t I = 0; I < H->Count; I++) {
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
  // Second pass: the marked ones are dropped and named to the node.
  uint64_t Forget[512];
  uint64_t Pending = 0;
  for (uint64_t I = 0; I < H->Count;) {
    if (!(H->Address[I] & 1)) {
      I++;
      continue;
    }
    H->Address[I] &= ~uint64_t(1);
    Forget[Pending++] = H->Address[I];
    drop(*H, I); // the last entry moves to I: look at it next
    if (Pending == sizeof Forget / sizeof Forget[0]) {
      if (!Link.send(MessageType::Forget, Forget, sizeof Forget))
        return false;
      Pending = 0;
    }
  }
  return !Pending || Link.send(MessageType::Forget, Forget, uint32_t(Pending * 8));
}

} // namespace popcorn
