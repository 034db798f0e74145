//===- NodePages.h - A node's side of the coherence protocol ----*- C++ -*-===//
//
// What one node holds of each page (nothing, a read-only copy, the only
// writable one) and what it has asked the directory for
// (PageDirectory.h).  A fault asks for what it needs unless a request
// already covers it: a node has at most one request per page in flight,
// which the directory relies on, and threads that fault on a page already
// asked for wait for its grant and then look again (a write that waited
// for a read grant asks again, for the upgrade).
//
// The caller maps the answers to mprotect and to the link: a grant's
// bytes, the data a recall sends home.  Home (node 0) keeps one too: its
// copy is home's memory itself.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_NODEPAGES_H
#define POPCORN_RUNTIME_NODEPAGES_H

#include "coherence/PageTable.h"
#include "coherence/Protocol.h"

namespace popcorn {

/// What the node may do with its copy of a page.
enum class Holding : uint8_t { Nothing, ReadOnly, Writable };

enum class FaultKind : uint8_t { Read, Write, Atomic };

struct NodePageEntry {
  uint64_t Page;
  Holding Held;
  bool Asked;      // a request is in flight
  Access Wanted;   // what it asked for
};

/// What a faulting thread does next.
enum class FaultStep : uint8_t {
  Proceed, // the node holds enough: retry the access
  Ask,     // send the directory a request for FaultAnswer::Wanted, then wait
  Wait,    // a request is in flight: wait for its answer, then fault again
  Full,    // no room to record the page
};

struct FaultAnswer {
  FaultStep Step;
  Access Wanted;
};

/// Why the node refused a message from home; nothing changed.
enum class NodeError : uint8_t {
  None,
  Full,
  NotAsked,   // a grant or denial for nothing asked, or not what was asked
  NothingHeld, // an upgrade of a page the node does not hold
  NotOwner,   // a recall of a page the node does not hold writable
};

const char *describe(NodeError E);

class NodePages {
public:
  /// Slots: Capacity zeroed entries, a power of two.
  NodePages(NodePageEntry *Slots, uint32_t Capacity) : Table(Slots, Capacity) {}

  FaultAnswer fault(uint64_t Page, FaultKind Kind);

  /// The directory granted what was asked; the caller puts the bytes in
  /// place as Data says (held: nothing to do) before the thread retries.
  NodeError granted(uint64_t Page, Access Granted, GrantData Data);
  /// No such page: every thread waiting on it gets the fault.
  NodeError denied(uint64_t Page);
  /// Drop the page (no data goes back, even if it was writable: only an
  /// unmap invalidates a writer) and acknowledge.  Always answered: a node
  /// that holds nothing has nothing to drop.
  Holding invalidate(uint64_t Page);
  /// Send the page home, then keep it read-only (Downgrade) or drop it.
  NodeError recall(uint64_t Page, RecallMode Mode);

  Holding holding(uint64_t Page) const;

private:
  void forgetIfIdle(NodePageEntry *E);

  PageTable<NodePageEntry> Table;
};

} // namespace popcorn

#endif
