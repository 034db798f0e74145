//===- NodePages.cpp - A node's side of the coherence protocol ------------===//

#include "coherence/NodePages.h"

namespace popcorn {

const char *describe(NodeError E) {
  switch (E) {
  case NodeError::None:
    return "no error";
  case NodeError::Full:
    return "the node's page table is full";
  case NodeError::NotAsked:
    return "an answer to a request the node did not make";
  case NodeError::NothingHeld:
    return "an upgrade of a page the node does not hold";
  case NodeError::NotOwner:
    return "a recall of a page the node does not hold writable";
  }
  return "?";
}

Holding NodePages::holding(uint64_t Page) const {
  const NodePageEntry *E = Table.find(Page);
  return E ? E->Held : Holding::Nothing;
}

// An entry that holds nothing and asks nothing is worth nothing: freeing
// it keeps the table as small as the node's working set.
void NodePages::forgetIfIdle(NodePageEntry *E) {
  if (E->Held == Holding::Nothing && !E->Asked)
    Table.remove(E);
}

FaultAnswer NodePages::fault(uint64_t Page, FaultKind Kind) {
  // An atomic update reads and writes in one step: it needs the only copy.
  Access Needed = Kind == FaultKind::Read ? Access::Read : Access::Write;
  Holding Enough = Needed == Access::Read ? Holding::ReadOnly : Holding::Writable;
  NodePageEntry *E = Table.insert(Page);
  if (!E)
    return FaultAnswer{FaultStep::Full, Needed};
  if (E->Held >= Enough)
    return FaultAnswer{FaultStep::Proceed, Needed};
  if (E->Asked)
    return FaultAnswer{FaultStep::Wait, E->Wanted};
  E->Asked = true;
  E->Wanted = Needed;
  return FaultAnswer{FaultStep::Ask, Needed};
}

NodeError NodePages::granted(uint64_t Page, Access Granted, GrantData Data) {
  NodePageEntry *E = Table.find(Page);
  if (!E || !E->Asked || E->Wanted != Granted)
    return NodeError::NotAsked;
  // FIFO links put an Invalidate behind the grant it follows, never
  // before: a node asked to upgrade still holds its copy.
  if (Data == GrantData::Held && E->Held != Holding::ReadOnly)
    return NodeError::NothingHeld;
  E->Asked = false;
  E->Held = Granted == Access::Read ? Holding::ReadOnly : Holding::Writable;
  return NodeError::None;
}

NodeError NodePages::denied(uint64_t Page) {
  NodePageEntry *E = Table.find(Page);
  if (!E || !E->Asked)
    return NodeError::NotAsked;
  E->Asked = false;
  forgetIfIdle(E);
  return NodeError::None;
}

Holding NodePages::invalidate(uint64_t Page) {
  NodePageEntry *E = Table.find(Page);
  if (!E)
    return Holding::Nothing;
  Holding Was = E->Held;
  // A request in flight stays: the directory answers it after this.
  E->Held = Holding::Nothing;
  forgetIfIdle(E);
  return Was;
}

NodeError NodePages::recall(uint64_t Page, RecallMode Mode) {
  NodePageEntry *E = Table.find(Page);
  if (!E || E->Held != Holding::Writable)
    return NodeError::NotOwner;
  E->Held = Mode == RecallMode::Downgrade ? Holding::ReadOnly : Holding::Nothing;
  forgetIfIdle(E);
  return NodeError::None;
}

} // namespace popcorn
