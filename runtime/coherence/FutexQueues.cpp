//===- FutexQueues.cpp - Who waits on which futex word, at home -----------===//
#include "coherence/FutexQueues.h"

namespace popcorn {
namespace {

constexpr uint32_t None = FutexWaiter::None;

// Waiters a wake takes, one line per node through their slots' Next (a
// slot taken off its bucket's line is free for it), so that the tokens
// come out grouped by node without a second buffer.
struct WokenLines {
  uint32_t Head[MaxNodes], Tail[MaxNodes];

  WokenLines() {
    for (int N = 0; N < MaxNodes; N++)
      Head[N] = Tail[N] = None;
  }

  void add(FutexWaiter *Waiters, uint32_t W) {
    int N = Waiters[W].Node;
    Waiters[W].Next = None;
    if (Tail[N] == None)
      Head[N] = W;
    else
      Waiters[Tail[N]].Next = W;
    Tail[N] = W;
  }
};

} // namespace

const char *describe(FutexError E) {
  switch (E) {
  case FutexError::None:
    return "no error";
  case FutexError::ThreadOutOfRange:
    return "thread index beyond the futex table's capacity";
  case FutexError::AlreadyWaiting:
    return "thread already waits on a futex";
  case FutexError::BadNode:
    return "node id out of range";
  case FutexError::NoBits:
    return "empty futex bitset";
  case FutexError::Misaligned:
    return "futex word not 4-byte aligned";
  }
  return "unknown futex error";
}

FutexQueues::FutexQueues(FutexWaiter *Waiters, FutexBucket *Buckets, uint32_t Capacity)
    : Waiters(Waiters), Buckets(Buckets), Capacity(Capacity),
      BucketMask(futexBucketsFor(Capacity) - 1) {
  for (uint32_t W = 0; W < Capacity; W++)
    Waiters[W] = FutexWaiter{0, 0, 0, None, None, 0, false};
  for (uint32_t B = 0; B <= BucketMask; B++)
    Buckets[B] = FutexBucket{None, None};
}

// Fibonacci hashing: futex words are often a few bytes or a page apart
// (a mutex's lock and waiters count, one lock per object), and the
// multiply spreads such neighbours over the high bits.
FutexBucket &FutexQueues::bucketOf(uint64_t Key) const {
  uint64_t Mixed = Key * 0x9e3779b97f4a7c15ull;
  return Buckets[(Mixed >> 32) & BucketMask];
}

void FutexQueues::append(FutexBucket &B, uint32_t W) {
  Waiters[W].Prev = B.Tail;
  Waiters[W].Next = None;
  if (B.Tail == None)
    B.Head = W;
  else
    Waiters[B.Tail].Next = W;
  B.Tail = W;
}

void FutexQueues::unlink(FutexBucket &B, uint32_t W) {
  FutexWaiter &X = Waiters[W];
  (X.Prev == None ? B.Head : Waiters[X.Prev].Next) = X.Next;
  (X.Next == None ? B.Tail : Waiters[X.Next].Prev) = X.Prev;
  X.Prev = X.Next = None;
}

FutexError FutexQueues::wait(FutexWord Word, uint32_t Thread, uint8_t Node, uint64_t Token,
                             uint32_t Bits) {
  if (Thread >= Capacity)
    return FutexError::ThreadOutOfRange;
  if (Node >= MaxNodes)
    return FutexError::BadNode;
  if (!Bits)
    return FutexError::NoBits;
  if (Word.Address % 4)
    return FutexError::Misaligned;
  FutexWaiter &W = Waiters[Thread];
  if (W.Queued)
    return FutexError::AlreadyWaiting;
  W.Key = Word.key();
  W.Token = Token;
  W.Bits = Bits;
  W.Node = Node;
  W.Queued = true;
  append(bucketOf(W.Key), Thread);
  return FutexError::None;
}

// Lays out the tokens of the waiters in Lines node after node, and frees
// their slots.
static void collect(FutexWaiter *Waiters, const WokenLines &Lines, uint64_t *Tokens,
                    uint32_t *Begin) {
  uint32_t At = 0;
  for (int N = 0; N < MaxNodes; N++) {
    Begin[N] = At;
    for (uint32_t W = Lines.Head[N], Next; W != None; W = Next) {
      Next = Waiters[W].Next;
      Tokens[At++] = Waiters[W].Token;
      Waiters[W].Queued = false;
      Waiters[W].Next = None;
    }
  }
  Begin[MaxNodes] = At;
}

FutexError FutexQueues::wake(FutexWord Word, uint32_t Count, uint32_t Bits, FutexWoken &Out) {
  Out.clear();
  if (!Bits)
    return FutexError::NoBits;
  if (Word.Address % 4)
    return FutexError::Misaligned;
  uint64_t Key = Word.key();
  FutexBucket &B = bucketOf(Key);
  WokenLines Lines;
  uint32_t Woken = 0;
  for (uint32_t W = B.Head, Next; W != None && Woken < Count; W = Next) {
    Next = Waiters[W].Next;
    if (Waiters[W].Key != Key || !(Waiters[W].Bits & Bits))
      continue;
    unlink(B, W);
    Lines.add(Waiters, W);
    Woken++;
  }
  collect(Waiters, Lines, Out.Tokens, Out.Begin);
  return FutexError::None;
}

FutexError FutexQueues::requeue(FutexWord Word, uint32_t Count, FutexWord Target,
                                uint32_t Moves, FutexWoken &Out) {
  Out.clear();
  if (Word.Address % 4 || Target.Address % 4)
    return FutexError::Misaligned;
  uint64_t Key = Word.key(), TargetKey = Target.key();
  FutexBucket &From = bucketOf(Key), &To = bucketOf(TargetKey);
  WokenLines Lines;
  uint32_t Woken = 0, Moved = 0;
  // A waiter moved to the end of the same bucket (another word that
  // hashes alike) is met again further on, under its new key: skipped.
  for (uint32_t W = From.Head, Next; W != None && (Woken < Count || Moved < Moves); W = Next) {
    Next = Waiters[W].Next;
    if (Waiters[W].Key != Key)
      continue;
    if (Woken < Count) {
      unlink(From, W);
      Lines.add(Waiters, W);
      Woken++;
      continue;
    }
    Moved++;
    if (TargetKey == Key)
      continue;
    unlink(From, W);
    Waiters[W].Key = TargetKey;
    append(To, W);
  }
  collect(Waiters, Lines, Out.Tokens, Out.Begin);
  Out.Requeued = Moved;
  return FutexError::None;
}

bool FutexQueues::queuedWith(uint32_t Thread, uint64_t Token) const {
  return Thread < Capacity && Waiters[Thread].Queued && Waiters[Thread].Token == Token;
}

FutexLeave FutexQueues::cancel(uint32_t Thread, uint64_t Token) {
  if (Thread >= Capacity)
    return FutexLeave::Refused;
  if (!queuedWith(Thread, Token))
    return FutexLeave::NotWaiting;
  unlink(bucketOf(Waiters[Thread].Key), Thread);
  Waiters[Thread].Queued = false;
  return FutexLeave::WasQueued;
}

FutexLeave FutexQueues::move(uint32_t Thread, uint64_t Token, uint8_t Node) {
  if (Thread >= Capacity || Node >= MaxNodes)
    return FutexLeave::Refused;
  if (!queuedWith(Thread, Token))
    return FutexLeave::NotWaiting;
  Waiters[Thread].Node = Node;
  return FutexLeave::WasQueued;
}

// How many waiters B's line holds walking forward, with its links agreeing
// both ways and its waiters in this bucket; past Limit (a cycle), or
// broken, Limit + 1.
uint32_t FutexQueues::lineLength(const FutexBucket &B, uint32_t Limit) const {
  uint32_t Length = 0, Prev = None;
  for (uint32_t W = B.Head; W != None; Prev = W, W = Waiters[W].Next) {
    if (W >= Capacity || Length == Limit)
      return Limit + 1;
    const FutexWaiter &X = Waiters[W];
    if (X.Prev != Prev || !X.Queued || &bucketOf(X.Key) != &B || X.Node >= MaxNodes || !X.Bits)
      return Limit + 1;
    Length++;
  }
  return B.Tail == Prev ? Length : Limit + 1;
}

bool FutexQueues::consistent() const {
  uint32_t Queued = 0, Linked = 0;
  for (uint32_t W = 0; W < Capacity; W++)
    Queued += Waiters[W].Queued;
  for (uint32_t B = 0; B <= BucketMask; B++) {
    uint32_t Length = lineLength(Buckets[B], Capacity);
    if (Length > Capacity)
      return false;
    Linked += Length;
  }
  return Linked == Queued;
}

} // namespace popcorn
