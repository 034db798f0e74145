//===- AddressSpace.cpp - The home node decides every mapping -------------===//
#include "memory/AddressSpace.h"
#include "memory/RetainedPages.h"
#include "state/NodeState.h"
#include "support/Syscall.h"

namespace popcorn {

namespace {

// The first Bytes of freed range I, which is that long at least.
uint64_t takeFront(uint32_t I, uint64_t Bytes) {
  NodeState &N = node();
  ArenaFreeRange &F = N.Free[I];
  uint64_t A = F.Address;
  F.Address += Bytes;
  F.Bytes -= Bytes;
  if (!F.Bytes)
    F = N.Free[--N.FreeCount];
  return A;
}

// First fit among freed ranges, else from the top.
uint64_t take(uint64_t Bytes) {
  NodeState &N = node();
  for (uint32_t I = 0; I < N.FreeCount; I++)
    if (N.Free[I].Bytes >= Bytes)
      return takeFront(I, Bytes);
  if (N.ArenaNext + Bytes > ArenaBase + ArenaBytes)
    return 0;
  uint64_t A = N.ArenaNext;
  N.ArenaNext += Bytes;
  return A;
}

// [A, A + Bytes) if it is free, unmapped (the arena's untouched top is
// reserved, and its piece is unmapped here).
bool takeAt(uint64_t A, uint64_t Bytes) {
  NodeState &N = node();
  if (A == N.ArenaNext && A + Bytes <= ArenaBase + ArenaBytes) {
    if (sys::failed(sys::call6(sys::Munmap, long(A), long(Bytes))))
      return false;
    N.ArenaNext += Bytes;
    return true;
  }
  for (uint32_t I = 0; I < N.FreeCount; I++)
    if (N.Free[I].Address == A && N.Free[I].Bytes >= Bytes)
      return takeFront(I, Bytes) == A;
  return false;
}

void give(uint64_t A, uint64_t Bytes) {
  NodeState &N = node();
  for (uint32_t I = 0; I < N.FreeCount; I++) {
    ArenaFreeRange &F = N.Free[I];
    if (F.Address + F.Bytes == A) {
      F.Bytes += Bytes;
      return;
    }
    if (A + Bytes == F.Address) {
      F.Address = A;
      F.Bytes += Bytes;
      return;
    }
  }
  // A full list only loses address space, of which the arena has plenty.
  if (N.FreeCount < sizeof N.Free / sizeof N.Free[0])
    N.Free[N.FreeCount++] = {A, Bytes};
}
} // namespace

bool reserveArena() {
  NodeState &N = node();
  if (!sys::reserve(ArenaBase, ArenaBytes, sys::MapFixedNoReplace))
    return false;
  N.ArenaNext = ArenaBase;
  N.ArenaReady = true;
  return true;
}

void noteMappingCall(long Number, long A, long B, long C, long D) {
  NodeState &N = node();
  constexpr long MapAnonymous = 0x20, ProtRead = 1, ProtReadWrite = 3;
  long Prot = C, Flags = D;
  // Made readable and not writable (PROT_NONE ones are not: home cannot
  // read them, and serves them as missing).
  bool ReadOnly = (Prot & ProtReadWrite) == ProtRead;
  if (Number == sys::Mmap) {
    constexpr long MapType = 0xf, MapPrivate = 2;
    N.MappingChanges += (Flags & sys::MapFixed) != 0;
    N.ReadOnlyMade += ReadOnly;
    N.SharedMade += (Flags & MapType) != MapPrivate;
    N.FileMapped |= !(Flags & MapAnonymous);
    if (Flags & (sys::MapFixed | sys::MapFixedNoReplace))
      notePagesChanged(uint64_t(A), uint64_t(B));
  } else if (Number == sys::Mprotect || Number == sys::PkeyMprotect) {
    N.MappingChanges++;
    N.ReadOnlyMade += ReadOnly;
    notePagesChanged(uint64_t(A), uint64_t(B));
  } else if (Number == sys::Mremap || Number == sys::Shmat || Number == sys::Shmdt) {
    N.MappingChanges++;
    N.ReadOnlyMade++; // may move or map read-only pages
    N.SharedMade += Number == sys::Shmat;
    if (Number == sys::Mremap)
      notePagesChanged(uint64_t(A), uint64_t(B));
    else if (Number == sys::Shmdt) // of a size home does not know
      notePagesChanged(ArenaBase, ArenaBytes);
  } else if (Number == sys::Munmap) {
    N.MappingChanges++;
    notePagesChanged(uint64_t(A), uint64_t(B));
  } else if (Number == sys::Madvise) {
    // What discards pages: DONTNEED, FREE, REMOVE, DONTNEED_LOCKED.
    constexpr long Dontneed = 4, Free = 8, Remove = 9, DontneedLocked = 24;
    if (C == Dontneed || C == Free || C == Remove || C == DontneedLocked)
      notePagesChanged(uint64_t(A), uint64_t(B));
  }
}

long homeMmap(long Address, long Bytes, long Prot, long Flags, long Fd, long Offset) {
  NodeState &N = node();
  if ((Flags & (sys::MapFixed | sys::MapFixedNoReplace)) || !N.ArenaReady || Bytes <= 0)
    return sys::call6(sys::Mmap, Address, Bytes, Prot, Flags, Fd, Offset);
  // An address without MAP_FIXED is a suggestion: the kernel took it
  // wherever it was free, outside the arena too, where no node knows the
  // range (gnulib's sigsegv tests suggest 0x12340000).  Home honours it
  // only inside the arena.
  uint64_t Size = pageUp(uint64_t(Bytes));
  uint64_t Suggested = uint64_t(Address);
  bool AtSuggested = Suggested && Suggested % PageBytes == 0 && inArena(Suggested, Size) &&
                     takeAt(Suggested, Size);
  uint64_t At = AtSuggested ? Suggested : take(Size);
  if (!At)
    return -sys::Enomem;
  long R = sys::call6(sys::Mmap, long(At), Bytes, Prot, Flags | sys::MapFixed, Fd, Offset);
  if (sys::failed(R))
    give(At, Size);
  return R;
}

long homeMunmap(long Address, long Bytes) {
  uint64_t Size = pageUp(uint64_t(Bytes));
  if (!node().ArenaReady || !inArena(uint64_t(Address), Size) || uint64_t(Address) % PageBytes)
    return sys::call6(sys::Munmap, Address, Bytes);
  // Unmapped, as the program asked: /proc/self/maps, mincore and msync
  // then say the range is gone (a PROT_NONE reservation in its place looked
  // mapped: gnulib's test-explicit_bzero read freed heap memory it believed
  // still there and crashed).  The range goes back to the free list; only
  // home places mappings there again (MAP_FIXED), and the kernel chooses
  // its own addresses far above the arena.
  long R = sys::call6(sys::Munmap, Address, long(Size));
  if (sys::failed(R))
    return R;
  give(uint64_t(Address), Size);
  return 0;
}

long homeMremap(long Address, long OldBytes, long NewBytes, long Flags, long NewAddress) {
  if (!node().ArenaReady || !inArena(uint64_t(Address), uint64_t(OldBytes)))
    return sys::call6(sys::Mremap, Address, OldBytes, NewBytes, Flags, NewAddress);
  constexpr long MayMove = 1, Fixed = 2;
  uint64_t OldSize = pageUp(uint64_t(OldBytes)), NewSize = pageUp(uint64_t(NewBytes));
  if ((Flags & ~MayMove) || uint64_t(Address) % PageBytes || !OldSize || !NewSize)
    return -sys::Enomem; // libc falls back to allocate, copy and free
  if (NewSize <= OldSize) {
    long R = sys::call6(sys::Mremap, Address, OldBytes, NewBytes, 0, 0);
    if (!sys::failed(R) && NewSize < OldSize)
      give(uint64_t(Address) + NewSize, OldSize - NewSize);
    return R;
  }
  // Growing: in place if the pages after it are free, else the kernel moves
  // the pages to a range home takes for them, as it would to a place of
  // its own (realloc of a large block: SQLite's in-memory journal grows one
  // page at a time, and copying made that quadratic).
  uint64_t End = uint64_t(Address) + OldSize;
  if (takeAt(End, NewSize - OldSize)) {
    long R = sys::call6(sys::Mremap, Address, OldBytes, NewBytes, 0, 0);
    if (sys::failed(R))
      give(End, NewSize - OldSize);
    return R;
  }
  if (!(Flags & MayMove))
    return -sys::Enomem;
  uint64_t At = take(NewSize);
  if (!At)
    return -sys::Enomem;
  long R = sys::call6(sys::Mremap, Address, OldBytes, NewBytes, MayMove | Fixed, long(At));
  if (sys::failed(R)) {
    give(At, NewSize);
    return R;
  }
  give(uint64_t(Address), OldSize);
  return R;
}

uint64_t arenaMapStack(uint64_t Bytes) {
  long R = homeMmap(0, long(StackGapBytes + Bytes), sys::ProtNone, sys::MapPrivateAnonymous, -1,
                    0);
  if (sys::failed(R) || sys::call6(sys::Munmap, R, long(StackGapBytes)) ||
      sys::call6(sys::Mprotect, R + long(StackGapBytes), long(Bytes), sys::ProtReadWrite))
    return 0;
  return uint64_t(R) + StackGapBytes;
}

} // namespace popcorn
