//===- Channel.cpp - Whole messages over a transport ----------------------===//
#include "Channel.h"
#include "Syscall.h"

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

bool Channel::waitReadable(int Ms) {
  switch (Via) {
  case TransportKind::Socket:
    return socketWaitReadable(Fd, Ms);
  }
  return true; // then receiveSome reports the error
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

bool Channel::receiveHeader(MessageHeader &Header, int WaitMs) {
  TimedOut = false;
  // The wait for a message to start is the caller's to bound (a thread
  // may compute away for hours); only its rest is bounded by TimeoutMs.
  if (!waitReadable(WaitMs)) {
    TimedOut = true;
    return false;
  }
  return receivePayload(&Header, sizeof Header);
}

// One receive for everyByte: what came, or EINTR to try again once the
// link is readable (within TimeoutMs), or 0 if it was not in time.
long Channel::receiveOrWait(long At, uint64_t Left) {
  long N = receiveSome(reinterpret_cast<void *>(At), Left);
  if (N != -11) // EAGAIN: wait, then once more
    return N;
  if (!waitReadable(TimeoutMs > 0 ? TimeoutMs : -1)) {
    TimedOut = true;
    return 0;
  }
  return -4;
}

bool Channel::receivePayload(void *Into, uint64_t Bytes) {
  return sys::everyByte(Into, Bytes,
                        [this](long At, uint64_t Left) { return receiveOrWait(At, Left); });
}

long Channel::receiveIntoProgram(void *Into, uint64_t Bytes) {
  constexpr long Efault = -14;
  uint64_t Done = 0;
  bool Fault = false;
  bool All = sys::everyByte(Into, Bytes, [&](long At, uint64_t Left) {
    long N = receiveOrWait(At, Left);
    Fault = N == Efault; // the rest waits in the link
    Done += N > 0 ? uint64_t(N) : 0;
    return Fault ? 0 : N;
  });
  return All || Fault ? long(Done) : -1;
}

bool Channel::receiveExactly(MessageType Type, void *Into, uint32_t Bytes) {
  MessageHeader Header;
  return receiveHeader(Header, TimeoutMs > 0 ? TimeoutMs : -1) && Header.Type == Type &&
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
