//===- Channel.cpp - Whole messages over a stream socket ------------------===//
#include "Channel.h"
#include "Syscall.h"

namespace popcorn {

// All Bytes through read or write (Call); false at end of stream or error.
static bool transferAll(long Call, int Fd, const void *Data, uint64_t Bytes) {
  auto P = reinterpret_cast<long>(Data);
  while (Bytes) {
    long N = sys::call6(Call, Fd, P, long(Bytes));
    if (N == -4) // EINTR
      continue;
    if (N <= 0)
      return false;
    P += N;
    Bytes -= uint64_t(N);
  }
  return true;
}

static bool writeAll(int Fd, const void *Data, uint64_t Bytes) {
  return transferAll(sys::Write, Fd, Data, Bytes);
}

// A waiting node usually gets its answer within microseconds; sleeping in
// read costs a wake-up, several times the round trip.  So it polls a
// while before it blocks, yielding the processor at each round: on a
// machine with fewer cores than busy processes the peer it waits for may
// need this one's core (measured in bench/migration.c).
static void awaitData(int Fd) {
  constexpr int PollRounds = 100;
  constexpr long Peek = 0x2 | 0x40; // MSG_PEEK | MSG_DONTWAIT
  char Byte;
  for (int Round = 0; Round < PollRounds; Round++) {
    if (sys::call6(sys::Recvfrom, Fd, long(&Byte), 1, Peek, 0, 0) != -11) // EAGAIN
      return;
    sys::call6(sys::SchedYield, 0);
  }
}

static bool readAll(int Fd, void *Data, uint64_t Bytes) {
  return transferAll(sys::Read, Fd, Data, Bytes);
}

bool Channel::send(MessageType Type, const void *Payload, uint32_t Bytes) {
  return send2(Type, Payload, Bytes, nullptr, 0);
}

bool Channel::send2(MessageType Type, const void *First, uint32_t FirstBytes,
                    const void *Second, uint32_t SecondBytes) {
  MessageHeader Header{Type, FirstBytes + SecondBytes};
  // One system call for the whole message when the socket takes it all,
  // so the peer wakes up once.
  struct {
    const void *Base;
    uint64_t Length;
  } Parts[3] = {{&Header, sizeof Header}, {First, FirstBytes}, {Second, SecondBytes}};
  long Sent;
  do
    Sent = sys::call6(sys::Writev, Fd, long(Parts), 3);
  while (Sent == -4); // EINTR
  if (Sent < 0)
    return false;
  for (const auto &Part : Parts) {
    uint64_t Done = uint64_t(Sent) < Part.Length ? uint64_t(Sent) : Part.Length;
    Sent -= long(Done);
    if (!writeAll(Fd, static_cast<const char *>(Part.Base) + Done, Part.Length - Done))
      return false;
  }
  return true;
}

bool Channel::receiveHeader(MessageHeader &Header) {
  awaitData(Fd);
  return readAll(Fd, &Header, sizeof Header);
}

bool Channel::receivePayload(void *Into, uint64_t Bytes) { return readAll(Fd, Into, Bytes); }

bool Channel::skip(uint64_t Bytes) {
  uint8_t Drop[256];
  while (Bytes) {
    uint64_t N = Bytes < sizeof Drop ? Bytes : sizeof Drop;
    if (!readAll(Fd, Drop, N))
      return false;
    Bytes -= N;
  }
  return true;
}

} // namespace popcorn
