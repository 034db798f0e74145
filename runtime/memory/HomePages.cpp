//===- HomePages.cpp - Home serves its pages and takes them back ----------===//
#include "memory/HomePages.h"
#include "memory/PageAccess.h"
#include "memory/ReadablePages.h"
#include "memory/RetainedPages.h"
#include "state/NodeState.h"
#include "support/Syscall.h"
#include <string.h>

namespace popcorn {

// A node's PageRequest: as many of the pages as this process has, from
// the first, as long as the program's access to them is the first's
// (PageAccess.h).  Sent from the program's memory when they are known readable
// (ReadablePages.h), else read through the kernel (sys::copyOwnMemory)
// into the run buffer, which ends the run at a page that is not mapped.
bool servePages(int Id, Channel &Link, uint32_t Bytes) {
  NodeState &N = node();
  PageRequestMessage Request;
  if (Bytes != sizeof Request || !Link.receivePayload(&Request, sizeof Request) ||
      !Request.Count || Request.Count > MaxPagesPerRun || Request.Address % PageBytes)
    return false;
  uint32_t Pages = Request.Count;
  const uint8_t *From = reinterpret_cast<const uint8_t *>(Request.Address);
  if (!readableInPlace(Request.Address, Pages)) {
    sys::IoVec Local = {N.PageRun, uint64_t(Pages) * PageBytes},
               Program = {reinterpret_cast<void *>(Request.Address), Local.Size};
    long Read = sys::copyOwnMemory(sys::ProcessVmReadv, Local, &Program, 1);
    Pages = Read > 0 ? uint32_t(uint64_t(Read) / PageBytes) : 0;
    From = N.PageRun;
    noteReadable(Request.Address, Pages);
  }
  if (!Pages)
    return Link.send(MessageType::PageMissing, &Request.Address, 8);
  uint32_t Flags;
  Pages = sameAccessRun(Request.Address, Pages, Flags);
  if (Flags & PageRunReadOnly)
    noteReadOnlyHeld(Id);
  N.PagesFetched += Pages;
  N.PageRequests++;
  PageRunMessage Run = {Request.Address, Pages, Flags};
  if (!Link.send2(MessageType::PageRun, &Run, sizeof Run, From, Pages * PageBytes))
    return false;
  // Hashed while the node maps them, not before it has them.
  for (uint32_t I = 0; I < Pages; I++)
    notePageHeld(Id, Request.Address + I * PageBytes, From + I * PageBytes);
  return true;
}

namespace {
// A run of pages the thread wrote on node Id, back with it.  Whatever
// goes through the kernel (a receive into the program's memory, a write
// from the run buffer, node-private as the program's data may be among
// the pages), so that a page the program has no write access to now is
// skipped, not a crash.  Straight into the program's memory when InPlace
// (no other thread can unmap a page before it is hashed here): one copy
// less, and no process_vm_writev, which pins each page (bench/sieve.c
// moving every 100 ms: 8% less time); else all through the run buffer.
// The run's bytes are next in the link.
bool takeRunBack(int Id, Channel &Link, uint64_t Address, uint32_t Pages, bool InPlace) {
  NodeState &N = node();
  uint64_t Total = uint64_t(Pages) * PageBytes;
  auto *Program = reinterpret_cast<uint8_t *>(Address);
  long Direct = InPlace ? Link.receiveIntoProgram(Program, Total) : 0;
  if (Direct < 0 || !Link.receivePayload(N.PageRun + Direct, Total - uint64_t(Direct)))
    return false;
  // The node keeps its copy of each page written here.
  auto Held = [&](uint64_t From, uint64_t To) {
    for (uint64_t At = From; At + PageBytes <= To; At += PageBytes)
      notePageHeld(Id, Address + At, InPlace ? Program + At : N.PageRun + At);
    if (To > From)
      noteReadable(Address + From, (To - From) / PageBytes);
  };
  Held(0, uint64_t(Direct));
  // The rest from the first byte not written: a page the kernel will not
  // write (not home's any more) ends a write, and the next starts after it.
  for (uint64_t Done = uint64_t(Direct); Done < Total;) {
    sys::IoVec To = {Program + Done, Total - Done};
    long Written = sys::copyOwnMemory(sys::ProcessVmWritev, {N.PageRun + Done, To.Size}, &To, 1);
    uint64_t End = Done + (Written > 0 ? uint64_t(Written) : 0);
    Held(pageDown(Done), End);
    Done = End == Total ? End : pageDown(End) + PageBytes;
  }
  N.PagesReturned += Pages;
  return true;
}

// PageData: a run of pages the thread wrote on node Id (takeRunBack).
bool takePagesBack(int Id, Channel &Link, uint32_t Bytes, bool InPlace) {
  PageRunMessage Run;
  if (Bytes < sizeof Run || !Link.receivePayload(&Run, sizeof Run) || !Run.Pages ||
      Run.Pages > MaxPagesPerRun || Run.Address % PageBytes ||
      Bytes - sizeof Run != uint64_t(Run.Pages) * PageBytes)
    return false;
  return takeRunBack(Id, Link, Run.Address, Run.Pages, InPlace);
}

// PageSet: pages the thread wrote on node Id apart from each other, each
// a run of one.
bool takePageSetBack(int Id, Channel &Link, uint32_t Bytes, bool InPlace) {
  PageSetMessage Set;
  uint64_t Address[MaxPagesPerRun];
  if (Bytes < sizeof Set || !Link.receivePayload(&Set, sizeof Set) || !Set.Count ||
      Set.Count > MaxPagesPerRun ||
      Bytes - sizeof Set != uint64_t(Set.Count) * (sizeof Address[0] + PageBytes) ||
      !Link.receivePayload(Address, Set.Count * sizeof Address[0]))
    return false;
  for (uint32_t I = 0; I < Set.Count; I++)
    if (Address[I] % PageBytes || !takeRunBack(Id, Link, Address[I], 1, InPlace))
      return false;
  return true;
}

} // namespace

bool takeWrittenBack(int Id, Channel &Link, const MessageHeader &H, bool InPlace) {
  if (H.Type == MessageType::PageData)
    return takePagesBack(Id, Link, H.Bytes, InPlace);
  if (H.Type == MessageType::PageSet)
    return takePageSetBack(Id, Link, H.Bytes, InPlace);
  return false;
}

// The bytes the thread changed on node Id in a page shared with other
// processes, written through the kernel (the program may have unmapped
// or protected the page since; another process may be writing the rest).
bool takeDiffBack(Channel &Link, uint32_t Bytes) {
  NodeState &N = node();
  PageDiffMessage M;
  if (Bytes < sizeof M || Bytes > MaxDiffBytes || !Link.receivePayload(N.PageRun, Bytes))
    return false;
  memcpy(&M, N.PageRun, sizeof M);
  if (M.Address % PageBytes || M.Segments > PageBytes / 2)
    return false;
  constexpr uint32_t Batch = 64;
  sys::IoVec Local[Batch], Program[Batch];
  uint32_t Queued = 0, At = sizeof M;
  for (uint32_t I = 0; I < M.Segments; I++) {
    DiffSegment S;
    if (At + sizeof S > Bytes)
      return false;
    memcpy(&S, N.PageRun + At, sizeof S);
    At += sizeof S;
    if (!S.Bytes || S.Offset + S.Bytes > PageBytes || At + S.Bytes > Bytes)
      return false;
    Local[Queued] = {N.PageRun + At, S.Bytes};
    Program[Queued++] = {reinterpret_cast<void *>(M.Address + S.Offset), S.Bytes};
    At += S.Bytes;
    if (Queued == Batch || I + 1 == M.Segments) {
      sys::copyOwnMemory(sys::ProcessVmWritev, Local, Queued, Program, Queued);
      Queued = 0;
    }
  }
  return At == Bytes;
}

} // namespace popcorn
