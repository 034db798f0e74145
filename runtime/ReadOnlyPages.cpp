//===- ReadOnlyPages.cpp - Home's pages the program may only read ---------===//
#include "ReadOnlyPages.h"
#include "NodeState.h"
#include "Syscall.h"

namespace popcorn {
namespace {

// A copy of the maps' read-only mappings, valid while no mapping call
// was made since it was read (Key).  A program that protects pages one by
// one may have more than fit: the maps are then read at every request.
constexpr uint32_t MaxRanges = 1024;
struct ReadOnlyRanges {
  uint64_t Key;
  uint32_t Count;
  bool Overflowed;
  AddressRange Ranges[MaxRanges];
};

// Calls Visit(Low, High) for each mapping of this process that can be
// read and not written, in address order; false if the maps could not be
// read.  Character by character: only a line's first two fields matter,
// and a path can be longer than any buffer.
template <class Visitor> bool forEachReadOnlyMapping(Visitor Visit) {
  constexpr long AtFdcwd = -100, OpenCloexec = 02000000; // the same on both ISAs
  long Fd = sys::call6(sys::Openat, AtFdcwd, long("/proc/self/maps"), OpenCloexec);
  if (sys::failed(Fd))
    return false;
  enum { Low, High, Access, Rest } Field = Low;
  uint64_t Bounds[2] = {0, 0};
  char Readable = 0, Writable = 0;
  unsigned AccessAt = 0;
  char Buffer[2048];
  long Got;
  while ((Got = sys::call6(sys::Read, Fd, long(Buffer), sizeof Buffer)) > 0)
    for (long I = 0; I < Got; I++) {
      char C = Buffer[I];
      if (C == '\n') {
        if (Field == Rest && Readable == 'r' && Writable == '-')
          Visit(Bounds[0], Bounds[1]);
        Field = Low;
        Bounds[0] = Bounds[1] = 0;
        AccessAt = 0;
        continue;
      }
      if (Field == Low && C == '-') {
        Field = High;
      } else if (Field == Low || Field == High) {
        if (C == ' ') {
          Field = Access;
          continue;
        }
        uint64_t Digit = C >= 'a' ? uint64_t(C - 'a' + 10) : uint64_t(C - '0');
        Bounds[Field] = Bounds[Field] * 16 + Digit;
      } else if (Field == Access) {
        if (C == ' ')
          Field = Rest;
        else if (AccessAt == 0)
          Readable = C;
        else if (AccessAt == 1)
          Writable = C;
        AccessAt++;
      }
    }
  sys::call6(sys::Close, Fd);
  return Got == 0;
}

// Where the run from Address ends: at the end of the read-only mapping
// that holds it, or at the start of the first one above it.
struct RunEnd {
  uint64_t Address, End;
  bool ReadOnly = false;
  void see(uint64_t Low, uint64_t High) {
    if (High <= Address || Low >= End)
      return;
    if (Low <= Address) {
      ReadOnly = true;
      End = High < End ? High : End;
    } else if (!ReadOnly) {
      End = Low;
    }
  }
};

ReadOnlyRanges *currentRanges() {
  NodeState &N = node();
  auto *T = static_cast<ReadOnlyRanges *>(N.ReadOnly);
  if (!T && !(T = reinterpret_cast<ReadOnlyRanges *>(sys::mapPrivate(sizeof(ReadOnlyRanges)))))
    return nullptr;
  N.ReadOnly = T;
  // A mapping made where none was (not MAP_FIXED) replaces none of the
  // list's; one made read-only counts in ReadOnlyMade.
  uint64_t Key = N.MappingChanges + N.ReadOnlyMade;
  if (T->Key != Key) {
    T->Count = 0;
    T->Overflowed = false;
    bool Read = forEachReadOnlyMapping([T](uint64_t Low, uint64_t High) {
      if (T->Count == MaxRanges)
        T->Overflowed = true;
      else
        T->Ranges[T->Count++] = {Low, High};
    });
    if (!Read)
      return nullptr;
    T->Key = Key;
  }
  return T;
}

} // namespace

uint32_t sameAccessRun(uint64_t Address, uint32_t Pages, bool &ReadOnly) {
  NodeState &N = node();
  ReadOnly = false;
  if (!N.ReadOnlyMade)
    return Pages;
  RunEnd Run{Address, Address + uint64_t(Pages) * PageBytes};
  ReadOnlyRanges *T = currentRanges();
  if (T && !T->Overflowed) {
    for (uint32_t I = 0; I < T->Count; I++)
      Run.see(T->Ranges[I].Low, T->Ranges[I].High);
  } else if (!forEachReadOnlyMapping([&Run](uint64_t Low, uint64_t High) { Run.see(Low, High); })) {
    // Cannot tell: served writable, as before protections were known.
    return Pages;
  }
  ReadOnly = Run.ReadOnly;
  return uint32_t((Run.End - Address) / PageBytes);
}

} // namespace popcorn
