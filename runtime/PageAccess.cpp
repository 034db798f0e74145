//===- PageAccess.cpp - How the program may use the pages home serves ----===//
#include "PageAccess.h"
#include "Message.h"
#include "NodeState.h"
#include "Syscall.h"

namespace popcorn {
namespace {

// A copy of the maps' read-only and shared mappings, valid while no
// mapping call was made since it was read (Key).  A program that protects
// pages one by one may have more than fit: the maps are then read at every
// request.
constexpr uint32_t MaxRanges = 1024;
struct KindRange {
  uint64_t Low, High;
  uint32_t Flags; // PageRunReadOnly, PageRunMapShared
};
struct KindRanges {
  uint64_t Key;
  uint32_t Count;
  bool Overflowed;
  KindRange Ranges[MaxRanges];
};

// Calls Visit(Low, High, Flags) for each mapping of this process that can
// be read and not written, or is shared, in address order; false if the
// maps could not be read.  Character by character: only a line's first
// two fields matter, and a path can be longer than any buffer.
template <class Visitor> bool forEachKindOfMapping(Visitor Visit) {
  constexpr long AtFdcwd = -100, OpenCloexec = 02000000; // the same on both ISAs
  long Fd = sys::call6(sys::Openat, AtFdcwd, long("/proc/self/maps"), OpenCloexec);
  if (sys::failed(Fd))
    return false;
  enum { Low, High, Perms, Rest } Field = Low;
  uint64_t Bounds[2] = {0, 0};
  char Access[4] = {};
  unsigned AccessAt = 0;
  char Buffer[2048];
  long Got;
  while ((Got = sys::call6(sys::Read, Fd, long(Buffer), sizeof Buffer)) > 0)
    for (long I = 0; I < Got; I++) {
      char C = Buffer[I];
      if (C == '\n') {
        uint32_t Flags = (Access[0] == 'r' && Access[1] == '-' ? PageRunReadOnly : 0) |
                         (Access[3] == 's' ? PageRunMapShared : 0);
        if (Field == Rest && Flags)
          Visit(Bounds[0], Bounds[1], Flags);
        Field = Low;
        Bounds[0] = Bounds[1] = 0;
        Access[0] = Access[1] = Access[2] = Access[3] = 0;
        AccessAt = 0;
        continue;
      }
      if (Field == Low && C == '-') {
        Field = High;
      } else if (Field == Low || Field == High) {
        if (C == ' ') {
          Field = Perms;
          continue;
        }
        uint64_t Digit = C >= 'a' ? uint64_t(C - 'a' + 10) : uint64_t(C - '0');
        Bounds[Field] = Bounds[Field] * 16 + Digit;
      } else if (Field == Perms) {
        if (C == ' ')
          Field = Rest;
        else if (AccessAt < 4)
          Access[AccessAt++] = C;
      }
    }
  sys::call6(sys::Close, Fd);
  return Got == 0;
}

// Where the run from Address ends: at the end of the mapping of a kind
// that holds it, or at the start of the first one above it.
struct RunEnd {
  uint64_t Address, End;
  uint32_t Flags = 0;
  void see(uint64_t Low, uint64_t High, uint32_t Kind) {
    if (High <= Address || Low >= End)
      return;
    if (Low <= Address) {
      Flags = Kind;
      End = High < End ? High : End;
    } else if (!Flags) {
      End = Low;
    }
  }
};

KindRanges *currentRanges() {
  NodeState &N = node();
  auto *T = static_cast<KindRanges *>(N.PageKinds);
  if (!T && !(T = reinterpret_cast<KindRanges *>(sys::mapPrivate(sizeof(KindRanges)))))
    return nullptr;
  N.PageKinds = T;
  // A mapping made where none was (not MAP_FIXED) replaces none of the
  // list's; one made read-only or shared is counted.
  uint64_t Key = N.MappingChanges + N.ReadOnlyMade + N.SharedMade;
  if (T->Key != Key) {
    T->Count = 0;
    T->Overflowed = false;
    bool Read = forEachKindOfMapping([T](uint64_t Low, uint64_t High, uint32_t Flags) {
      if (T->Count == MaxRanges)
        T->Overflowed = true;
      else
        T->Ranges[T->Count++] = {Low, High, Flags};
    });
    if (!Read)
      return nullptr;
    T->Key = Key;
  }
  return T;
}

} // namespace

uint32_t sameAccessRun(uint64_t Address, uint32_t Pages, uint32_t &Flags) {
  NodeState &N = node();
  Flags = 0;
  if (!N.ReadOnlyMade && !N.SharedMade)
    return Pages;
  RunEnd Run{Address, Address + uint64_t(Pages) * PageBytes};
  KindRanges *T = currentRanges();
  if (T && !T->Overflowed) {
    for (uint32_t I = 0; I < T->Count; I++)
      Run.see(T->Ranges[I].Low, T->Ranges[I].High, T->Ranges[I].Flags);
  } else if (!forEachKindOfMapping([&Run](uint64_t Low, uint64_t High, uint32_t Kind) {
               Run.see(Low, High, Kind);
             })) {
    return Pages; // no /proc: served as plain memory, as the runtime did before
  }
  Flags = Run.Flags;
  return uint32_t((Run.End - Address) / PageBytes);
}

} // namespace popcorn
