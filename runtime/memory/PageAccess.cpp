//===- PageAccess.cpp - How the program may use the pages home serves ----===//
#include "memory/PageAccess.h"
#include "link/Message.h"
#include "state/NodeState.h"
#include "support/ProcessMaps.h"
#include "support/Syscall.h"

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
// maps could not be read.
template <class Visitor> bool forEachKindOfMapping(Visitor Visit) {
  return forEachMapping([&Visit](uint64_t Low, uint64_t High, uint32_t Access) {
    uint32_t Flags =
        ((Access & (MappingReadable | MappingWritable)) == MappingReadable ? PageRunReadOnly : 0) |
        (Access & MappingShared ? PageRunMapShared : 0);
    if (Flags)
      Visit(Low, High, Flags);
  });
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
