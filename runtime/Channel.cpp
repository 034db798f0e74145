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

static bool readAll(int Fd, void *Data, uint64_t Bytes) {
  return transferAll(sys::Read, Fd, Data, Bytes);
}

bool Channel::send(MessageType Type, const void *Payload, uint32_t Bytes) {
  return send2(Type, Payload, Bytes, nullptr, 0);
}

bool Channel::send2(MessageType Type, const void *First, uint32_t FirstBytes,
                    const void *Second, uint32_t SecondBytes) {
  MessageHeader Header{Type, FirstBytes + SecondBytes};
  return writeAll(Fd, &Header, sizeof Header) && writeAll(Fd, First, FirstBytes) &&
         writeAll(Fd, Second, SecondBytes);
}

bool Channel::receiveHeader(MessageHeader &Header) { return readAll(Fd, &Header, sizeof Header); }

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
