//===- FutexMessages.h - Futex messages checked, and served at home -*- C++ -*-===//
//
// Every field of a futex message (link/Message.h) is checked before
// anything is applied: its size, the word's alignment and range, its
// flags, counts and thread index within what the program may have, the
// node it came from.  A message that fails is refused whole, with what
// was wrong; one that passes cannot break the table (FutexQueues.h).
//
// Home serves a node's request with serveFutex: the word's value, which
// a wait and a compare requeue depend on, is the caller's to read, while
// it holds the word's page.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_COHERENCE_FUTEXMESSAGES_H
#define POPCORN_RUNTIME_COHERENCE_FUTEXMESSAGES_H

#include "coherence/FutexQueues.h"

namespace popcorn {

/// Why a futex message was refused.
enum class FutexFault : uint8_t {
  None,
  NotFutex,         // a message type that is not a futex one
  WrongSize,        // a payload of another size than its type's
  BadNode,          // sent by a node the program does not have
  Misaligned,       // a word not 4-byte aligned
  AddressOutOfRange,// a word at 0 or past user space
  UnknownFlags,     // a flag bit this protocol does not define
  NonzeroPad,       // padding that is not zero
  NoBits,           // an empty bitset
  ThreadOutOfRange, // a thread index past the program's most threads
  CountOutOfRange,  // a count the kernel refuses, or more tokens than threads
  ResultOutOfRange, // neither a count nor an errno
};

/// What was wrong, in a few words, for a one-line report.
const char *describe(FutexFault F);

/// A node's futex request (FutexWait, FutexWake, FutexRequeue,
/// FutexCancel), checked.
struct FutexRequest {
  MessageType Type;
  uint8_t From; // the node, as the link says: a message cannot claim one
  FutexWord Word, Target;
  uint64_t Token;
  uint32_t Thread, Expected, Bits, Count, Moves;
  bool Compare;
};

/// Checks a request of Type that node From sent, for a program of Nodes
/// nodes and at most Threads threads, and fills R.  That thread R.Thread
/// runs on node From is for the caller to check, in its table of threads.
FutexFault decodeFutexRequest(MessageType Type, const void *Payload, uint32_t Bytes, int From,
                              int Nodes, uint32_t Threads, FutexRequest &R);

/// Home's answer to a node (FutexWoken, FutexResult), checked.
struct FutexAnswer {
  MessageType Type;
  uint64_t Token;         // FutexResult's
  int64_t Result;         // FutexResult's
  uint32_t Count;         // FutexWoken's tokens,
  const uint8_t *Tokens;  // in the payload, unaligned: read with tokenAt
  uint64_t tokenAt(uint32_t I) const;
};

FutexFault decodeFutexAnswer(MessageType Type, const void *Payload, uint32_t Bytes,
                             uint32_t Threads, FutexAnswer &A);

/// What home answers a request: the FutexResult's value, or none yet (a
/// queued wait is answered by the wake that takes it).
struct FutexReply {
  bool Now;
  int64_t Result;
};

/// Applies R to the table.  WordValue is what R.Word holds (read under its
/// page), for FutexWait and a compare FutexRequeue.  Woken gets the
/// waiters to tell, grouped by node.
FutexReply serveFutex(FutexQueues &Q, const FutexRequest &R, uint32_t WordValue,
                      FutexWoken &Woken);

} // namespace popcorn

#endif
