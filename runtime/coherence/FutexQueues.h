//===- FutexQueues.h - Who waits on which futex word, at home ---*- C++ -*-===//
//
// Home's table of the program's futex waiters, wherever they run.  A
// thread on any node that waits on a futex word is queued here, at the
// word's directory entry, and a wake from any node finds it here: the two
// meet in one place without asking the other nodes.  The table is plain
// code without I/O; home's runtime drives it from the futex messages
// (FutexMessages.h) and its own threads' calls.
//
// Each thread of the program has one waiter slot, its index in home's
// table of threads: a thread waits on one word at a time, so the storage
// is fixed (the caller's, sized by the most threads the program may have)
// and a cancel finds its waiter without a search.  Waiters hang in FIFO
// lists, one per hash bucket of word addresses, as in the kernel: enqueue
// and removal are O(1), and a wake walks its word's bucket.
//
// Order: the kernel promises no order among a word's waiters (it wakes
// in priority order, FIFO within a priority, which musl does not rely
// on).  Here a word's waiters are woken strictly first come, first
// served, and a requeued waiter joins the end of its new word's line, as
// the kernel's own requeue does: no waiter is passed over for ever.
//
// The value check of FUTEX_WAIT and FUTEX_CMP_REQUEUE is the caller's,
// made while it holds the word's page: the table only queues and wakes.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_COHERENCE_FUTEXQUEUES_H
#define POPCORN_RUNTIME_COHERENCE_FUTEXQUEUES_H

#include "link/Message.h"

namespace popcorn {

/// A futex word as the kernel tells words apart: by address and by
/// whether the call named it private (FUTEX_PRIVATE_FLAG).  The kernel
/// keys the two differently, so a private wait is not woken by a shared
/// wake of the same address, and here neither.
struct FutexWord {
  uint64_t Address;
  bool Shared;

  /// One number for both: the word is 4-byte aligned, so bit 0 is free.
  uint64_t key() const { return Address | uint64_t(Shared); }
};

/// FUTEX_BITSET_MATCH_ANY: the bitset of FUTEX_WAIT and FUTEX_WAKE.
inline constexpr uint32_t FutexAnyBits = ~0u;

/// Why the table refused an operation; nothing changed then.
enum class FutexError : uint8_t {
  None,
  ThreadOutOfRange, // a thread index at or past the table's capacity
  AlreadyWaiting,   // the thread waits already (one wait at a time)
  BadNode,          // a node id at or past MaxNodes
  NoBits,           // an empty bitset (the kernel's EINVAL)
  Misaligned,       // a word address that is not 4-byte aligned
};

/// What the error is, in a few words, for a report.
const char *describe(FutexError E);

/// One thread's slot.  The caller provides the storage and the table
/// alone touches it.
struct FutexWaiter {
  static constexpr uint32_t None = ~0u;
  uint64_t Key;   // FutexWord::key() of the word it waits on
  uint64_t Token; // its node's name for this wait, given back by the wake
  uint32_t Bits;
  uint32_t Prev, Next; // neighbours in its bucket's line, or None
  uint8_t Node;
  bool Queued;
};

struct FutexBucket {
  uint32_t Head, Tail; // FutexWaiter::None when empty
};

/// Buckets for a table of Capacity threads: a power of two, no fewer
/// than the threads, so a bucket holds about one word's waiters.
constexpr uint32_t futexBucketsFor(uint32_t Capacity) {
  uint32_t B = 1;
  while (B < Capacity && B < (1u << 31))
    B *= 2;
  return B;
}

/// Storage for a table of Threads threads, for callers that know the
/// number when they compile.
template <uint32_t Threads> struct FutexStorage {
  FutexWaiter Waiters[Threads];
  FutexBucket Buckets[futexBucketsFor(Threads)];
};

/// Whom a wake took, grouped by the node each waits on: the caller sends
/// each node one message with its tokens.  Within a node, in the order
/// they were woken.
class FutexWoken {
public:
  /// Tokens has room for the table's capacity.
  explicit FutexWoken(uint64_t *Tokens) : Tokens(Tokens) {}

  uint32_t count() const { return Begin[MaxNodes]; }
  uint32_t countOn(int Node) const { return Begin[Node + 1] - Begin[Node]; }
  const uint64_t *tokensOn(int Node) const { return Tokens + Begin[Node]; }
  /// Waiters a requeue moved to the other word (none for a wake).
  uint32_t Requeued = 0;

private:
  friend class FutexQueues;
  void clear() {
    Requeued = 0;
    for (uint32_t &B : Begin)
      B = 0;
  }
  uint64_t *Tokens;
  uint32_t Begin[MaxNodes + 1] = {};
};

/// Where a thread that leaves its wait (cancel) or its node (move) was.
enum class FutexLeave : uint8_t {
  WasQueued,  // still queued: now out of the line (cancel: a timeout, a
              // signal), or waiting for its new node in the same place (move)
  NotWaiting, // a wake took it first (or it never waited with that
              // token): the wake's message to its node is on its way
  Refused,    // a thread or node out of range
};

class FutexQueues {
public:
  /// Waiters has Capacity entries, Buckets futexBucketsFor(Capacity).
  FutexQueues(FutexWaiter *Waiters, FutexBucket *Buckets, uint32_t Capacity);
  template <uint32_t Threads>
  explicit FutexQueues(FutexStorage<Threads> &S) : FutexQueues(S.Waiters, S.Buckets, Threads) {}

  uint32_t capacity() const { return Capacity; }

  /// Thread waits on Word from Node, for a wake whose bits meet Bits;
  /// Token comes back with the wake.  The caller has found the word
  /// holding the value the thread expects.
  FutexError wait(FutexWord Word, uint32_t Thread, uint8_t Node, uint64_t Token, uint32_t Bits);

  /// FUTEX_WAKE, FUTEX_WAKE_BITSET: wakes up to Count of Word's waiters
  /// whose bits meet Bits.  (FUTEX_WAKE's count as the kernel reads it:
  /// 0 or less wakes one; the caller converts.)
  FutexError wake(FutexWord Word, uint32_t Count, uint32_t Bits, FutexWoken &Out);

  /// FUTEX_REQUEUE, FUTEX_CMP_REQUEUE (the caller compares): wakes up to
  /// Count of Word's waiters and moves up to Moves more to Target, to the
  /// end of its line.  Bits do not matter, as in the kernel.  A requeue
  /// onto the same word leaves them in place, counted as moved.
  FutexError requeue(FutexWord Word, uint32_t Count, FutexWord Target, uint32_t Moves,
                     FutexWoken &Out);

  /// Thread leaves the wait it entered with Token: a timeout, a signal.
  FutexLeave cancel(uint32_t Thread, uint64_t Token);

  /// Thread, waiting with Token, now runs on Node: it keeps its place.
  FutexLeave move(uint32_t Thread, uint64_t Token, uint8_t Node);

  /// Whether Thread is queued.
  bool waiting(uint32_t Thread) const { return Thread < Capacity && Waiters[Thread].Queued; }

  /// Every line well linked, every queued waiter in its word's bucket and
  /// no other: what the tests check after every step.
  bool consistent() const;

private:
  FutexWaiter *Waiters;
  FutexBucket *Buckets;
  uint32_t Capacity;
  uint32_t BucketMask;

  FutexBucket &bucketOf(uint64_t Key) const;
  void append(FutexBucket &B, uint32_t W);
  void unlink(FutexBucket &B, uint32_t W);
  bool queuedWith(uint32_t Thread, uint64_t Token) const;
  uint32_t lineLength(const FutexBucket &B, uint32_t Limit) const;
};

} // namespace popcorn

#endif
