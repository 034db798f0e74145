//===- PageDirectory.cpp - Home's record of who holds each page -----------===//

#include "coherence/PageDirectory.h"

namespace popcorn {

const char *describe(DirectoryError E) {
  switch (E) {
  case DirectoryError::None:
    return "no error";
  case DirectoryError::BadNode:
    return "not a node of the program";
  case DirectoryError::Full:
    return "the page directory is full";
  case DirectoryError::TooManyRanges:
    return "too many mapped ranges";
  case DirectoryError::RangeBusy:
    return "another mapping call is under way";
  case DirectoryError::BadRange:
    return "not a range of whole mapped pages";
  case DirectoryError::Unexpected:
    return "an answer to nothing the directory asked";
  case DirectoryError::DuplicateRequest:
    return "a second request for a page from one node";
  case DirectoryError::AlreadyHeld:
    return "a request for access the node holds";
  }
  return "?";
}

PageDirectory::PageDirectory(int NodeCount, DirectoryEntry *Slots, uint64_t *ReadyRing,
                             uint32_t Capacity)
    : Nodes(NodeCount), Table(Slots, Capacity), Ring(ReadyRing), RingMask(Capacity - 1) {}

static Action grant(uint8_t Node, uint64_t Page, Access Granted, GrantData Data) {
  return Action{Action::Grant, Node, Granted, Data, RecallMode::Downgrade, Page};
}

static Action toNode(Action::Kind What, uint8_t Node, uint64_t Page,
                     RecallMode Mode = RecallMode::Downgrade) {
  return Action{What, Node, Access::Read, GrantData::Held, Mode, Page};
}

static void invalidateEach(uint8_t Nodes, uint64_t Page, ActionList &Out) {
  for (int N = 0; N < MaxNodes; ++N)
    if (Nodes & nodeBit(N))
      Out.add(toNode(Action::Invalidate, uint8_t(N), Page));
}

static bool validRange(uint64_t Low, uint64_t High) {
  return Low < High && Low % PageBytes == 0 && High % PageBytes == 0;
}

bool PageDirectory::parked(uint64_t Page) const {
  return Op.Kind != RangeKind::None && Page >= Op.Low && Page < Op.High;
}

void PageDirectory::makeReady(DirectoryEntry &E) {
  if (E.Ready)
    return;
  Ring[(RingHead + RingCount++) & RingMask] = E.Page;
  E.Ready = true;
}

DirectoryError PageDirectory::request(int From, uint64_t Page, Access Wanted, ActionList &Out) {
  if (From < 0 || From >= Nodes)
    return DirectoryError::BadNode;
  DirectoryEntry *E = Table.find(Page);
  if (!E && Mapped.at(Page) == Protection::Unmapped && !parked(Page)) {
    // Nothing queued for it either: answering now overtakes no one.
    Out.add(toNode(Action::Deny, uint8_t(From), Page));
    return DirectoryError::None;
  }
  if (!E && !(E = Table.insert(Page)))
    return DirectoryError::Full;
  bool Transaction = E->Step == Phase::Invalidating || E->Step == Phase::Recalling;
  if (Transaction && E->Serving.Node == From)
    return DirectoryError::DuplicateRequest;
  for (unsigned I = 0; I < E->Queued; ++I)
    if (E->Queue[I].Node == From)
      return DirectoryError::DuplicateRequest;
  uint8_t Bit = nodeBit(From);
  if (E->Owner == From || (Wanted == Access::Read && (E->Sharers & Bit)))
    return DirectoryError::AlreadyHeld;
  E->Queue[E->Queued++] = DirectoryRequest{uint8_t(From), Wanted};
  if (E->Step == Phase::Idle && !parked(Page))
    makeReady(*E);
  return DirectoryError::None;
}

bool PageDirectory::serveNext(ActionList &Out) {
  if (Op.Kind != RangeKind::None && clearNext(Out))
    return true;
  while (RingCount) {
    uint64_t Page = Ring[RingHead];
    RingHead = (RingHead + 1) & RingMask;
    --RingCount;
    DirectoryEntry *E = Table.find(Page);
    E->Ready = false;
    // A range operation took it meanwhile: it readies it when done.
    if (parked(Page))
      continue;
    DirectoryRequest R = E->Queue[0];
    for (unsigned I = 1; I < E->Queued; ++I)
      E->Queue[I - 1] = E->Queue[I];
    --E->Queued;
    serve(*E, R, Out);
    if (E->Step == Phase::Idle && E->Queued)
      makeReady(*E); // behind the other pages' requests
    else if (E->Step == Phase::Idle && Mapped.at(Page) == Protection::Unmapped)
      Table.remove(E); // denied, and held nowhere
    return true;
  }
  return false;
}

void PageDirectory::serve(DirectoryEntry &E, DirectoryRequest R, ActionList &Out) {
  Protection Prot = Mapped.at(E.Page);
  bool Allowed = R.Wanted == Access::Read ? Prot >= Protection::Read
                                          : Prot == Protection::ReadWrite;
  if (!Allowed)
    Out.add(toNode(Action::Deny, R.Node, E.Page));
  else if (R.Wanted == Access::Read)
    serveRead(E, R.Node, Out);
  else
    serveWrite(E, R.Node, Out);
  if (E.Step != Phase::Idle)
    E.Serving = R;
}

void PageDirectory::serveRead(DirectoryEntry &E, uint8_t Node, ActionList &Out) {
  if (E.Owner != NoOwner)
    return recallFrom(E, RecallMode::Downgrade, Out);
  Out.add(grant(Node, E.Page, Access::Read, E.Touched ? GrantData::FromHome : GrantData::Zero));
  E.Sharers |= nodeBit(Node);
  E.Touched = true;
}

void PageDirectory::serveWrite(DirectoryEntry &E, uint8_t Node, ActionList &Out) {
  if (E.Owner != NoOwner)
    return recallFrom(E, RecallMode::Invalidate, Out);
  uint8_t Others = E.Sharers & ~nodeBit(Node);
  if (!Others)
    return grantWrite(E, Node, Out);
  E.Step = Phase::Invalidating;
  E.AwaitAck = Others;
  invalidateEach(Others, E.Page, Out);
}

void PageDirectory::grantWrite(DirectoryEntry &E, uint8_t Node, ActionList &Out) {
  GrantData Data = (E.Sharers & nodeBit(Node)) ? GrantData::Held
                   : E.Touched                 ? GrantData::FromHome
                                               : GrantData::Zero;
  Out.add(grant(Node, E.Page, Access::Write, Data));
  E.Sharers = 0;
  E.Owner = int8_t(Node);
  E.Touched = true;
}

void PageDirectory::recallFrom(DirectoryEntry &E, RecallMode Mode, ActionList &Out) {
  E.Step = Phase::Recalling;
  E.AwaitData = nodeBit(E.Owner);
  Out.add(toNode(Action::Recall, uint8_t(E.Owner), E.Page, Mode));
}

DirectoryError PageDirectory::awaitedAnswer(int From, uint64_t Page, bool Data,
                                            DirectoryEntry *&E) {
  if (From < 0 || From >= Nodes)
    return DirectoryError::BadNode;
  E = Table.find(Page);
  uint8_t Awaited = !E ? 0 : Data ? E->AwaitData : E->AwaitAck;
  return (Awaited & nodeBit(From)) ? DirectoryError::None : DirectoryError::Unexpected;
}

DirectoryError PageDirectory::invalidated(int From, uint64_t Page, ActionList &Out) {
  DirectoryEntry *E;
  if (DirectoryError Why = awaitedAnswer(From, Page, false, E); Why != DirectoryError::None)
    return Why;
  uint8_t Bit = nodeBit(From);
  E->AwaitAck &= ~Bit;
  E->Sharers &= ~Bit;
  if (E->Owner == From)
    E->Owner = NoOwner; // an unmap drops written pages too
  if (E->AwaitAck || E->AwaitData)
    return DirectoryError::None;
  if (E->Step == Phase::Clearing) {
    clearingDone(*E, Out);
  } else {
    grantWrite(*E, E->Serving.Node, Out);
    endTransaction(*E, Out);
  }
  return DirectoryError::None;
}

DirectoryError PageDirectory::recalled(int From, uint64_t Page, ActionList &Out) {
  DirectoryEntry *E;
  if (DirectoryError Why = awaitedAnswer(From, Page, true, E); Why != DirectoryError::None)
    return Why;
  uint8_t Bit = nodeBit(From);
  E->AwaitData &= ~Bit;
  E->Owner = NoOwner;
  bool Downgraded = E->Step == Phase::Clearing ? Op.Kind == RangeKind::ProtectRead
                                               : E->Serving.Wanted == Access::Read;
  if (Downgraded)
    E->Sharers |= Bit;
  if (E->AwaitAck || E->AwaitData)
    return DirectoryError::None;
  if (E->Step == Phase::Clearing) {
    clearingDone(*E, Out);
    return DirectoryError::None;
  }
  // Home's copy is the owner's now: serve the request from it.
  uint8_t Node = E->Serving.Node;
  if (E->Serving.Wanted == Access::Read) {
    Out.add(grant(Node, Page, Access::Read, GrantData::FromHome));
    E->Sharers |= nodeBit(Node);
  } else {
    grantWrite(*E, Node, Out);
  }
  endTransaction(*E, Out);
  return DirectoryError::None;
}

void PageDirectory::endTransaction(DirectoryEntry &E, ActionList &Out) {
  E.Step = Phase::Idle;
  if (E.ClearAfter) {
    E.ClearAfter = false;
    if (!startClearing(E, Out) && --Op.Outstanding == 0 && Op.Cursor >= Op.High)
      finishRange(Out);
  } else if (E.Queued && !parked(E.Page)) {
    makeReady(E);
  }
}

DirectoryError PageDirectory::map(uint64_t Low, uint64_t High, Protection Prot,
                                  ActionList &Out) {
  if (!validRange(Low, High) || Prot == Protection::Unmapped || Mapped.anyMapped(Low, High))
    return DirectoryError::BadRange;
  if (rangeBusy())
    return DirectoryError::RangeBusy;
  // Requests left from before an unmap are served against the new
  // mapping, and entries left with them say "zero" (finishRange).
  if (!Mapped.assign(Low, High, Prot))
    return DirectoryError::TooManyRanges;
  Out.add(toNode(Action::RangeDone, 0, Low));
  return DirectoryError::None;
}

DirectoryError PageDirectory::protect(uint64_t Low, uint64_t High, Protection Prot,
                                      ActionList &Out) {
  if (!validRange(Low, High) || Prot == Protection::Unmapped || !Mapped.allMapped(Low, High))
    return DirectoryError::BadRange;
  if (Prot != Protection::ReadWrite)
    return startRange(Prot == Protection::None ? RangeKind::ProtectNone : RangeKind::ProtectRead,
                      Low, High);
  // More access takes nothing from anyone.
  if (rangeBusy())
    return DirectoryError::RangeBusy;
  if (!Mapped.assign(Low, High, Prot))
    return DirectoryError::TooManyRanges;
  Out.add(toNode(Action::RangeDone, 0, Low));
  return DirectoryError::None;
}

DirectoryError PageDirectory::unmap(uint64_t Low, uint64_t High, ActionList &) {
  if (!validRange(Low, High))
    return DirectoryError::BadRange;
  return startRange(RangeKind::Unmap, Low, High);
}

DirectoryError PageDirectory::startRange(RangeKind Kind, uint64_t Low, uint64_t High) {
  if (rangeBusy())
    return DirectoryError::RangeBusy;
  // The new protection holds at once for requests, which wait for the
  // operation's end anyway (parked).
  Protection Prot = Kind == RangeKind::Unmap         ? Protection::Unmapped
                    : Kind == RangeKind::ProtectNone ? Protection::None
                                                     : Protection::Read;
  if (!Mapped.assign(Low, High, Prot))
    return DirectoryError::TooManyRanges;
  Op.Kind = Kind;
  Op.Low = Op.Cursor = Low;
  Op.High = High;
  Op.Outstanding = 0;
  return DirectoryError::None;
}

// Page by page rather than slot by slot: probing every page of the range
// costs what the mapping call's own mprotect or munmap does, and entries
// never move under the cursor.
bool PageDirectory::clearNext(ActionList &Out) {
  while (Op.Cursor < Op.High) {
    DirectoryEntry *E = Table.find(Op.Cursor);
    Op.Cursor += PageBytes;
    if (!E)
      continue;
    if (E->Step != Phase::Idle) {
      // A grant may be on its way: clear after it, so that the range
      // operation's messages follow it on the link.
      E->ClearAfter = true;
      ++Op.Outstanding;
    } else if (startClearing(*E, Out)) {
      ++Op.Outstanding;
      return true;
    }
  }
  if (Op.Outstanding)
    return false;
  finishRange(Out);
  return true;
}

bool PageDirectory::startClearing(DirectoryEntry &E, ActionList &Out) {
  uint8_t Owner = E.Owner == NoOwner ? 0 : nodeBit(E.Owner);
  switch (Op.Kind) {
  case RangeKind::Unmap: // nothing comes back: the pages are gone
    E.AwaitAck = E.Sharers | Owner;
    break;
  case RangeKind::ProtectNone: // written pages come home, where they stay
    E.AwaitAck = E.Sharers;
    E.AwaitData = Owner;
    break;
  case RangeKind::ProtectRead: // readers keep theirs
    E.AwaitData = Owner;
    break;
  case RangeKind::None:
    break;
  }
  if (!E.AwaitAck && !E.AwaitData)
    return false;
  E.Step = Phase::Clearing;
  invalidateEach(E.AwaitAck, E.Page, Out);
  if (E.AwaitData) {
    RecallMode Mode = Op.Kind == RangeKind::ProtectRead ? RecallMode::Downgrade
                                                        : RecallMode::Invalidate;
    Out.add(toNode(Action::Recall, uint8_t(E.Owner), E.Page, Mode));
  }
  return true;
}

void PageDirectory::clearingDone(DirectoryEntry &E, ActionList &Out) {
  E.Step = Phase::Idle;
  if (--Op.Outstanding == 0 && Op.Cursor >= Op.High)
    finishRange(Out);
}

void PageDirectory::finishRange(ActionList &Out) {
  uint64_t Low = Op.Low, High = Op.High;
  bool Unmapped = Op.Kind == RangeKind::Unmap;
  Op = RangeOperation();
  for (uint64_t Page = Low; Page < High; Page += PageBytes) {
    DirectoryEntry *E = Table.find(Page);
    if (!E)
      continue;
    if (Unmapped)
      E->Touched = false; // a later mapping starts with zeros
    if (E->Queued)
      makeReady(*E);
    else if (Unmapped)
      Table.remove(E);
  }
  Out.add(toNode(Action::RangeDone, 0, Low));
}

const char *PageDirectory::checkConsistency() const {
  uint8_t AllNodes = uint8_t((1u << Nodes) - 1);
  uint32_t Entries = 0, Ready = 0;
  for (uint32_t I = 0; I < Table.capacity(); ++I) {
    const DirectoryEntry &E = Table.slot(I);
    if (E.Page == 0)
      continue;
    ++Entries;
    Ready += E.Ready;
    if (E.Owner < NoOwner || E.Owner >= Nodes)
      return "an owner that is not a node";
    if (E.Owner != NoOwner && E.Sharers)
      return "a page both writable on a node and read-only on others";
    if ((E.Sharers | E.AwaitAck | E.AwaitData) & ~AllNodes)
      return "a node set with nodes that do not exist";
    if ((E.Step == Phase::Idle) != !(E.AwaitAck | E.AwaitData))
      return "a page waiting for answers outside a transaction, or neither";
    if (!E.Touched && (E.Sharers || E.Owner != NoOwner))
      return "a zero page that some node holds";
    if (E.Queued > unsigned(Nodes) || (E.Ready && !E.Queued))
      return "a request queue out of bounds";
    if (E.Ready && E.Step != Phase::Idle && !parked(E.Page))
      return "a page ready to serve in the middle of a transaction";
    for (unsigned Q = 0; Q < E.Queued; ++Q)
      for (unsigned R = Q + 1; R < E.Queued; ++R)
        if (E.Queue[Q].Node == E.Queue[R].Node)
          return "two requests from one node queued for a page";
    if (!rangeBusy() && (E.Step == Phase::Clearing || E.ClearAfter))
      return "a page still cleared after its range operation";
    if (!rangeBusy() && Mapped.at(E.Page) == Protection::Unmapped &&
        (E.Sharers || E.Owner != NoOwner))
      return "a copy of a page that no mapping holds";
  }
  if (Entries != Table.size())
    return "entries miscounted";
  if (Ready != RingCount)
    return "pages ready to serve miscounted";
  return nullptr;
}

} // namespace popcorn
