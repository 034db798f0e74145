//===- Channel.cpp - Whole messages over a transport ----------------------===//
#include "link/Channel.h"
#include "support/Signals.h"
#include "support/Syscall.h"

namespace popcorn {

// The transport's operations (one so far).
bool Channel::sendParts(SendPart *Parts, unsigned Count) {
  switch (Via) {
  case TransportKind::Socket:
    return socketSendParts(Fd, Parts, Count);
  }
  return false;
}

long Channel::receiveSome(void *Into, uint64_t Bytes) {
  switch (Via) {
  case TransportKind::Socket:
    return socketReceiveSome(Fd, Into, Bytes);
  }
  return -5; // EIO
}

WaitResult Channel::waitReadable(int Ms, int WakeFd) {
  switch (Via) {
  case TransportKind::Socket:
    return socketWaitReadable(Fd, Ms, WakeFd);
  }
  return WaitResult::Readable; // then receiveSome reports the error
}

bool Channel::peerGone() const {
  switch (Via) {
  case TransportKind::Socket:
    return socketPeerGone(Fd);
  }
  return true;
}

bool Channel::sendGathered(MessageType Type, const SendPart *Payload, unsigned Count) {
  if (Count > MaxPayloadParts)
    return false;
  MessageHeader Header{Type, 0};
  SendPart Parts[MaxPayloadParts + 1] = {{&Header, sizeof Header}};
  for (unsigned I = 0; I < Count; I++) {
    Parts[I + 1] = Payload[I];
    Header.Bytes += uint32_t(Payload[I].Length);
  }
  return sendParts(Parts, Count + 1);
}

bool Channel::send(MessageType Type, const void *Payload, uint32_t Bytes) {
  return send2(Type, Payload, Bytes, nullptr, 0);
}

bool Channel::send2(MessageType Type, const void *First, uint32_t FirstBytes, const void *Second,
                    uint32_t SecondBytes) {
  MessageHeader Header{Type, FirstBytes + SecondBytes};
  SendPart Parts[3] = {{&Header, sizeof Header}, {First, FirstBytes}, {Second, SecondBytes}};
  return sendParts(Parts, 3);
}

// A waiting node usually gets its answer within microseconds; sleeping in
// the kernel costs a wake-up, several times the round trip.  So a receive
// that finds nothing tries again a while before it blocks, yielding the
// processor at each round: on a machine with fewer cores than busy
// processes the peer it waits for may need this one's core (measured in
// bench/migration.c).  Trying the receive itself, not a peek, spares a
// system call.  Returns what receiveSome does; 0 with TimedOut set if
// WaitMs passed, with Woken set if WakeFd became readable.
long Channel::receiveWaiting(void *Into, uint64_t Bytes, int WaitMs, int WakeFd) {
  constexpr int PollRounds = 100;
  for (int Round = 0;; Round++) {
    long N = receiveSome(Into, Bytes);
    if (N == -sys::Eintr)
      continue;
    if (N != -sys::Eagain)
      return N;
    if (Round < PollRounds) {
      sys::call6(sys::SchedYield, 0);
      continue;
    }
    WaitResult Wait = waitReadable(WaitMs, WakeFd);
    if (Wait != WaitResult::Readable) {
      (Wait == WaitResult::Woken ? Woken : TimedOut) = true;
      return 0;
    }
  }
}

// Fills the empty buffer with what the link has (Wanted bytes at least,
// when it has them; no more if Exact), waiting at most WaitMs for the
// first byte.
bool Channel::receiveAhead(int WaitMs, uint64_t Wanted, int WakeFd) {
  long N = receiveWaiting(Ahead, Exact ? Wanted : ReceiveAheadBytes, WaitMs, WakeFd);
  AheadStart = 0;
  AheadEnd = N > 0 ? uint32_t(N) : 0;
  return N > 0;
}

uint64_t Channel::takeAhead(void *Into, uint64_t Bytes) {
  uint64_t Taken = aheadUpTo(Bytes);
  __builtin_memcpy(Into, Ahead + AheadStart, Taken);
  AheadStart += uint32_t(Taken);
  return Taken;
}

bool Channel::receiveHeader(MessageHeader &Header, int WaitMs, int WakeFd) {
  for (;;) {
    TimedOut = Woken = false;
    // The wait for a message to start is the caller's to bound (a thread
    // may compute away for hours); only its rest is bounded by TimeoutMs.
    if (AheadStart == AheadEnd && !receiveAhead(WaitMs, sizeof Header, WakeFd))
      return false;
    if (!receivePayload(&Header, sizeof Header))
      return false;
    if (!TakesSteering || Header.Type != MessageType::Steer)
      return true;
    int32_t Destination;
    if (Header.Bytes != sizeof Destination || !receivePayload(&Destination, sizeof Destination))
      return false;
    if (Destination >= 0 && Destination < MaxNodes)
      Steered = Destination + 1;
    else if (Destination == YieldRequest)
      YieldAsked = true;
  }
}

bool Channel::receivePayload(void *Into, uint64_t Bytes) {
  auto *To = static_cast<uint8_t *>(Into);
  uint64_t Done = takeAhead(To, Bytes);
  int WaitMs = dueWaitMs();
  while (Done < Bytes) {
    uint64_t Left = Bytes - Done;
    if (Left < ReceiveAheadBytes) { // with what follows it
      if (!receiveAhead(WaitMs, Left))
        return false;
      Done += takeAhead(To + Done, Left);
      continue;
    }
    long N = receiveWaiting(To + Done, Left, WaitMs);
    if (N <= 0)
      return false;
    Done += uint64_t(N);
  }
  return true;
}

long Channel::receiveIntoProgram(void *Into, uint64_t Bytes) {
  auto *To = static_cast<uint8_t *>(Into);
  // What came ahead goes through the kernel too: it stops where the
  // program's memory is not writable, and the rest stays in the buffer.
  uint64_t Done = 0;
  if (AheadStart < AheadEnd) {
    uint64_t Ready = aheadUpTo(Bytes);
    sys::IoVec Program = {To, Ready}, Local = {Ahead + AheadStart, Ready};
    long Copied = sys::copyOwnMemory(sys::ProcessVmWritev, Local, &Program, 1);
    Done = Copied > 0 ? uint64_t(Copied) : 0;
    AheadStart += uint32_t(Done);
    if (Done < Ready)
      return long(Done);
  }
  while (Done < Bytes) {
    long N = receiveWaiting(To + Done, Bytes - Done, dueWaitMs());
    if (N == -sys::Efault) // the rest waits in the link
      break;
    if (N <= 0)
      return -1;
    Done += uint64_t(N);
  }
  return long(Done);
}

bool Channel::receiveExactly(MessageType Type, void *Into, uint32_t Bytes) {
  MessageHeader Header;
  return receiveHeader(Header, dueWaitMs()) && Header.Type == Type &&
         Header.Bytes == Bytes && receivePayload(Into, Bytes);
}

bool Channel::skip(uint64_t Bytes) {
  uint8_t Drop[256];
  while (Bytes) {
    uint64_t N = Bytes < sizeof Drop ? Bytes : sizeof Drop;
    if (!receivePayload(Drop, N))
      return false;
    Bytes -= N;
  }
  return true;
}

} // namespace popcorn
