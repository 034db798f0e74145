//===- PageDirectory.h - Home's record of who holds each page ---*- C++ -*-===//
//
// One coherent memory over every node: a page is writable on exactly one
// node, or readable on one or more (reader-replicate, writer-invalidate,
// MSI at page granularity).  Home keeps this directory; every node,
// home's own threads included (node 0), asks it for the pages it faults
// on.  Per page:
//
//   zero       mapped, not handed out since: every node may take zeros
//   shared     read-only on the nodes in Sharers (perhaps none); home's
//              copy is current
//   modified   writable on Owner alone; home's copy is stale unless the
//              owner is home
//
// A request that finds another node holding the page starts a
// transaction: a write waits for every other reader's Invalidate to be
// acknowledged, a read or write of a modified page recalls it from its
// owner (downgraded to read-only for a read, dropped for a write).  An
// owner's data always comes home, and home grants from its copy: after a
// downgrade that copy stays current, so the next readers are served from
// home in one round trip instead of a recall each.  A node that asks to
// write a page it reads gets it without data (an upgrade).  Requests for
// a page in a transaction wait in its queue, in order, and are served when
// it ends: none is dropped or overtaken.
//
// Mapping calls are range operations (unmap, protect read-only or no
// access; map and protect read-write take effect at once): every copy the
// new protection forbids goes, written pages come home if the mapping
// stays, and only then is the operation done (RangeDone) and the mapping
// changed.  Requests for its pages meanwhile wait, and are served against
// the new mapping: a page no mapping holds is Denied.
//
// Plain code without I/O: the caller turns events (a node's messages, a
// mapping call at home) into calls, and carries out the Actions they
// return: sends, for the nodes; for home (node 0) itself, the same
// changes made in place.  Each call returns at most MaxActions; work that
// would return more waits for serveNext(), which the caller calls until
// it returns false after every event.
//
// Storage is the caller's: a table of DirectoryEntry and a ring of page
// addresses, both of a power-of-two Capacity, zeroed.  Home's copy of the
// pages is the program's memory at home, which the caller reads and
// writes: the directory only says when.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_PAGEDIRECTORY_H
#define POPCORN_RUNTIME_PAGEDIRECTORY_H

#include "coherence/MappedRanges.h"
#include "coherence/PageTable.h"
#include "coherence/Protocol.h"

namespace popcorn {

static_assert(MaxNodes <= 8, "node sets are bytes");

inline constexpr int8_t NoOwner = -1;

struct DirectoryRequest {
  uint8_t Node;
  Access Wanted;
};

/// Where a page's transaction is.
enum class Phase : uint8_t {
  Idle,
  Invalidating, // for a write: readers' acknowledgements
  Recalling,    // the owner's data
  Clearing,     // for a range operation: acknowledgements and data
};

struct DirectoryEntry {
  uint64_t Page;
  uint8_t Sharers;   // nodes holding it read-only
  int8_t Owner = NoOwner; // the node holding it writable
  uint8_t AwaitAck;  // nodes sent Invalidate, not yet acknowledged
  uint8_t AwaitData; // nodes sent Recall, whose data has not come
  Phase Step;
  bool Touched;      // handed out since it was mapped (else: zero)
  bool Ready;        // in the ring of pages with requests to serve
  bool ClearAfter;   // the range operation waits for this transaction
  DirectoryRequest Serving;
  uint8_t Queued;
  DirectoryRequest Queue[MaxNodes];
};

struct Action {
  enum Kind : uint8_t {
    Grant,      // Node gets Page with Granted access, its bytes from Data
    Deny,       // Node's request for Page fails: no such page
    Invalidate, // Node drops Page and acknowledges
    Recall,     // Node, the owner, sends Page home and keeps it as Mode says
    RangeDone,  // the range operation is complete everywhere
  };
  Kind What;
  uint8_t Node;
  Access Granted;
  GrantData Data;
  RecallMode Mode;
  uint64_t Page;
};

// The most one call returns: an Invalidate to every other node; or a
// grant, then the clearing its range operation waited for (an Invalidate
// or Recall to each holder) or the operation's end.
inline constexpr unsigned MaxActions = MaxNodes + 2;

struct ActionList {
  Action Items[MaxActions];
  unsigned Count = 0;
  void add(const Action &A) { Items[Count++] = A; }
  void clear() { Count = 0; }
};

/// Why the directory refused an event; nothing changed.
enum class DirectoryError : uint8_t {
  None,
  BadNode,          // not a node of the program
  Full,             // no room for another page's entry
  TooManyRanges,    // no room for another mapped range
  RangeBusy,        // another range operation is under way
  BadRange,         // empty, or not page-aligned
  Unexpected,       // an acknowledgement or data not asked for
  DuplicateRequest, // the node already asked for the page
  AlreadyHeld,      // the node asks for what it holds
};

const char *describe(DirectoryError E);

class PageDirectory {
public:
  /// NodeCount: 1 to MaxNodes, home being node 0.
  PageDirectory(int NodeCount, DirectoryEntry *Slots, uint64_t *ReadyRing,
                uint32_t Capacity);

  // A node's messages.
  DirectoryError request(int From, uint64_t Page, Access Wanted, ActionList &Out);
  DirectoryError invalidated(int From, uint64_t Page, ActionList &Out);
  /// The owner's data is in home's copy already.
  DirectoryError recalled(int From, uint64_t Page, ActionList &Out);

  // Mapping calls at home, one at a time: each ends with RangeDone.
  DirectoryError map(uint64_t Low, uint64_t High, Protection Prot, ActionList &Out);
  DirectoryError protect(uint64_t Low, uint64_t High, Protection Prot, ActionList &Out);
  DirectoryError unmap(uint64_t Low, uint64_t High, ActionList &Out);

  /// Serves a waiting request or advances the range operation; false when
  /// nothing is left to do until the next event.
  bool serveNext(ActionList &Out);

  Protection protection(uint64_t Page) const { return Mapped.at(Page); }
  /// Whether a node may answer about Page: it is mapped, or the range
  /// operation under way is taking it away (its copies still go).
  bool answerable(uint64_t Page) const {
    return Mapped.at(Page) != Protection::Unmapped || parked(Page);
  }
  const DirectoryEntry *entry(uint64_t Page) const { return Table.find(Page); }
  int nodeCount() const { return Nodes; }
  bool rangeBusy() const { return Op.Kind != RangeKind::None; }

  /// A description of the first broken invariant of the directory's
  /// records, or null: for tests.
  const char *checkConsistency() const;

private:
  enum class RangeKind : uint8_t { None, Unmap, ProtectNone, ProtectRead };
  struct RangeOperation {
    RangeKind Kind = RangeKind::None;
    uint64_t Low = 0, High = 0;
    uint64_t Cursor = 0;      // the next page to clear
    uint32_t Outstanding = 0; // pages whose copies are still going
  };

  void serve(DirectoryEntry &E, DirectoryRequest R, ActionList &Out);
  void serveRead(DirectoryEntry &E, uint8_t Node, ActionList &Out);
  void serveWrite(DirectoryEntry &E, uint8_t Node, ActionList &Out);
  void grantWrite(DirectoryEntry &E, uint8_t Node, ActionList &Out);
  void recallFrom(DirectoryEntry &E, RecallMode Mode, ActionList &Out);
  void endTransaction(DirectoryEntry &E, ActionList &Out);
  void makeReady(DirectoryEntry &E);
  // The entry of Page if it awaits From's answer (its data if Data, else
  // its acknowledgement), in E; else why the answer is refused.
  DirectoryError awaitedAnswer(int From, uint64_t Page, bool Data, DirectoryEntry *&E);
  bool parked(uint64_t Page) const;

  DirectoryError startRange(RangeKind Kind, uint64_t Low, uint64_t High);
  bool clearNext(ActionList &Out);
  bool startClearing(DirectoryEntry &E, ActionList &Out);
  void clearingDone(DirectoryEntry &E, ActionList &Out);
  void finishRange(ActionList &Out);

  int Nodes;
  PageTable<DirectoryEntry> Table;
  MappedRanges Mapped;
  RangeOperation Op;
  uint64_t *Ring;
  uint32_t RingMask, RingHead = 0, RingCount = 0;
};

} // namespace popcorn

#endif
