//===- Channel.cpp - Whole messages over a stream socket ------------------===//
#include "Channel.h"
#include "Syscall.h"

namespace popcorn {

// A peer gone is an error to report, not a SIGPIPE that ends the process
// without a word.
constexpr long NoSignal = 0x4000; // MSG_NOSIGNAL

// Whether Fd has data (or an end) within Ms milliseconds; Ms < 0: waits
// until it has.
static bool readableWithin(int Fd, int Ms) {
  struct {
    int Fd;
    short Events, Returned;
  } Poll = {Fd, 1 /* POLLIN */, 0};
  struct {
    long Seconds, Nanoseconds;
  } Limit = {Ms / 1000, long(Ms % 1000) * 1000000};
  long R;
  do
    R = sys::call6(sys::Ppoll, long(&Poll), 1, Ms < 0 ? 0 : long(&Limit), 0, 8);
  while (R == -4); // EINTR: the rest of the wait is not worth tracking
  return R != 0;
}

// All Bytes through read or write (Call); false at end of stream, error or
// (reading, TimeoutMs > 0) a silence of TimeoutMs.  A bounded read tries
// first and waits only when nothing is there: the answer has usually
// arrived, and a poll would cost a system call per part.
static bool transferAll(long Call, int Fd, const void *Data, uint64_t Bytes, int TimeoutMs,
                        bool *TimedOut) {
  constexpr long DontWait = 0x40; // MSG_DONTWAIT
  return sys::everyByte(const_cast<void *>(Data), Bytes, [&](long At, uint64_t Left) -> long {
    if (Call == sys::Sendto)
      return sys::call6(Call, Fd, At, long(Left), NoSignal, 0, 0);
    if (TimeoutMs <= 0)
      return sys::call6(Call, Fd, At, long(Left));
    long N = sys::call6(sys::Recvfrom, Fd, At, long(Left), DontWait, 0, 0);
    if (N != -11) // EAGAIN: wait, then once more
      return N;
    if (!readableWithin(Fd, TimeoutMs)) {
      *TimedOut = true;
      return 0;
    }
    return -4;
  });
}

static bool writeAll(int Fd, const void *Data, uint64_t Bytes) {
  bool Unused;
  return transferAll(sys::Sendto, Fd, Data, Bytes, 0, &Unused);
}

// A waiting node usually gets its answer within microseconds; sleeping in
// read costs a wake-up, several times the round trip.  So it polls a
// while before it blocks, yielding the processor at each round: on a
// machine with fewer cores than busy processes the peer it waits for may
// need this one's core (measured in bench/migration.c).
// True if data (or the end) came while it polled.
static bool awaitData(int Fd) {
  constexpr int PollRounds = 100;
  constexpr long Peek = 0x2 | 0x40; // MSG_PEEK | MSG_DONTWAIT
  char Byte;
  for (int Round = 0; Round < PollRounds; Round++) {
    if (sys::call6(sys::Recvfrom, Fd, long(&Byte), 1, Peek, 0, 0) != -11) // EAGAIN
      return true;
    sys::call6(sys::SchedYield, 0);
  }
  return false;
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
  struct {
    void *Name;
    uint32_t NameBytes;
    void *Parts;
    uint64_t PartCount;
    void *Control;
    uint64_t ControlBytes;
    int Flags;
  } Message = {nullptr, 0, Parts, 3, nullptr, 0, 0};
  long Sent;
  do
    Sent = sys::call6(sys::Sendmsg, Fd, long(&Message), NoSignal);
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

bool Channel::receiveHeader(MessageHeader &Header, int WaitMs) {
  TimedOut = false;
  // The wait for a message to start is the caller's to bound (a thread
  // may compute away for hours); only its rest is bounded by TimeoutMs.
  if (!awaitData(Fd) && !readableWithin(Fd, WaitMs)) {
    TimedOut = true;
    return false;
  }
  return receivePayload(&Header, sizeof Header);
}

bool Channel::receivePayload(void *Into, uint64_t Bytes) {
  return transferAll(sys::Read, Fd, Into, Bytes, TimeoutMs, &TimedOut);
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

void configureTcpLink(int Fd, int TimeoutMs) {
  constexpr long SolSocket = 1, SoKeepalive = 9, IpprotoTcp = 6, TcpNodelay = 1,
                 TcpKeepidle = 4, TcpKeepintvl = 5, TcpKeepcnt = 6;
  int Seconds = TimeoutMs > 3000 ? TimeoutMs / 3000 : 1;
  struct {
    long Level, Name;
    int Value;
  } const Options[] = {{IpprotoTcp, TcpNodelay, 1},   {SolSocket, SoKeepalive, 1},
                       {IpprotoTcp, TcpKeepidle, Seconds}, {IpprotoTcp, TcpKeepintvl, Seconds},
                       {IpprotoTcp, TcpKeepcnt, 3}};
  for (const auto &O : Options)
    sys::call6(sys::Setsockopt, Fd, O.Level, O.Name, long(&O.Value), sizeof O.Value);
}

} // namespace popcorn
