//===- Channel.h - Whole messages over a transport --------------*- C++ -*-===//
//
// Messages (Message.h) over a link's transport (Transport.h).
//
// Waits are bounded where an answer is due: once a message has started,
// each further part of it must arrive within TimeoutMs, and a caller that
// expects an answer (a page, a greeting) bounds the wait for its header.
// Waiting for the next thing a peer decides to do (a thread computing on
// another node, a forwarded read of a terminal) is not bounded: a peer
// that ends is seen as the end of the stream.
//
// A receive takes what the link has, up to a page and a little more, into
// the channel's buffer, and the parts of a message are read from there: a
// page request, or a page with its header, is one system call rather than
// one per part.  Longer payloads go straight where they are wanted.  So a
// link's transport handle is read through its Channel only.
//
// The buffer is the owner's to place (Ahead): the runtime's node table
// holds a channel per node, and a start-up that touched eight 4 KB
// buffers to set up a table of links no one may open was a fault per
// page (bench/startup.sh).  BufferedChannel carries its own.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_CHANNEL_H
#define POPCORN_RUNTIME_CHANNEL_H

#include "link/Message.h"
#include "link/Transport.h"

namespace popcorn {

/// POPCORN_TIMEOUT's default, in milliseconds.
inline constexpr int DefaultTimeoutMs = 10000;

/// Bytes a channel can receive ahead of what was asked for: a page and
/// the headers that precede it in a PageRun.
inline constexpr uint32_t ReceiveAheadBytes = 4096 + 64;

struct Channel {
  int Fd = -1;                               // the transport's handle
  TransportKind Via = TransportKind::Socket; // (the zeroed state too)
  /// Milliseconds a part of a message may take; 0 (zeroed state): no bound.
  int TimeoutMs = 0;
  /// The last receive failed because the peer was silent, not gone.
  bool TimedOut = false;
  /// The last receiveHeader failed because its WakeFd became readable.
  bool Woken = false;
  /// The wait for something due (an answer, the rest of a message):
  /// TimeoutMs, or no bound (-1) in the zeroed state.
  int dueWaitMs() const { return TimeoutMs > 0 ? TimeoutMs : -1; }
  /// Receives no byte past those asked for: the link goes to another
  /// process afterwards (popcorn-node execs the node on it), which must
  /// find the next message in the link, not in this buffer.
  bool Exact = false;
  /// A node's link to home: a Steer message may arrive where another is
  /// expected (home sends it whenever popcorn-ctl asks), and every receive
  /// takes it in passing.  Steered is then its destination + 1, until the
  /// node takes it (0: none).  One that carries YieldRequest (Signals.h)
  /// asks the thread there to let the program's other threads run a while
  /// (signals/Steering.cpp), as the signal of that value does on a node of
  /// this host.
  bool TakesSteering = false;
  int Steered = 0;
  bool YieldAsked = false;
  /// Whether a message (or part of one) has come and not been read.
  bool hasReceived() const { return AheadStart < AheadEnd; }

  /// Header and payload, all of it; false if the peer is gone.
  bool send(MessageType Type, const void *Payload, uint32_t Bytes);
  /// send() with a second part of payload after the first.
  bool send2(MessageType Type, const void *First, uint32_t FirstBytes, const void *Second,
             uint32_t SecondBytes);
  /// send() of a payload in Count parts (at most MaxPayloadParts).
  static constexpr unsigned MaxPayloadParts = 80;
  bool sendGathered(MessageType Type, const SendPart *Payload, unsigned Count);
  /// The next header, waiting for it at most WaitMs (-1: as long as the
  /// peer lives), or until WakeFd (if >= 0) is readable while no message
  /// has begun (then false, with Woken set); its payload is read with
  /// receivePayload.
  bool receiveHeader(MessageHeader &Header, int WaitMs = -1, int WakeFd = -1);
  bool receivePayload(void *Into, uint64_t Bytes);
  /// receivePayload straight into the program's memory, up to the first
  /// byte the kernel cannot write there: how many came (the rest waits in
  /// the link), -1 if the peer is gone.
  long receiveIntoProgram(void *Into, uint64_t Bytes);
  /// Reads and drops Bytes of payload.
  bool skip(uint64_t Bytes);
  /// The next message, which must be of Type with exactly Bytes of payload,
  /// within TimeoutMs.
  bool receiveExactly(MessageType Type, void *Into, uint32_t Bytes);
  /// Whether the peer is gone (hung up, the link failed), without waiting.
  bool peerGone() const;
  /// A new handle (a new peer): nothing received from an old one is left.
  void open(int NewFd) {
    Fd = NewFd;
    AheadStart = AheadEnd = 0;
  }

private:
  bool sendParts(SendPart *Parts, unsigned Count);
  long receiveSome(void *Into, uint64_t Bytes);
  WaitResult waitReadable(int Ms, int WakeFd);
  long receiveWaiting(void *Into, uint64_t Bytes, int WaitMs, int WakeFd = -1);
  bool receiveAhead(int WaitMs, uint64_t Wanted, int WakeFd = -1);
  uint64_t takeAhead(void *Into, uint64_t Bytes);
  uint64_t aheadUpTo(uint64_t Bytes) const {
    return AheadEnd - AheadStart < Bytes ? AheadEnd - AheadStart : Bytes;
  }
  uint32_t AheadStart = 0, AheadEnd = 0;

public:
  /// ReceiveAheadBytes of the owner's: received, not yet read, in
  /// [AheadStart, AheadEnd).  Set before the first receive.
  uint8_t *Ahead = nullptr;
};

/// A channel with its buffer in it: one of a tool's or a test's own.
struct BufferedChannel : Channel {
  BufferedChannel() { Ahead = Storage; }
  BufferedChannel(const BufferedChannel &) = delete;
  BufferedChannel &operator=(const BufferedChannel &) = delete;

private:
  uint8_t Storage[ReceiveAheadBytes];
};

} // namespace popcorn

#endif
