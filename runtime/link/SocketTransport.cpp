//===- SocketTransport.cpp - A link's bytes over a stream socket ----------===//
#include "link/Transport.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

// A peer gone is an error to report, not a SIGPIPE that ends the process
// without a word.
constexpr long NoSignal = 0x4000; // MSG_NOSIGNAL
constexpr long DontWait = 0x40;   // MSG_DONTWAIT

} // namespace

bool socketSendParts(int Fd, SendPart *Parts, unsigned Count) {
  struct {
    void *Name;
    uint32_t NameBytes;
    SendPart *Parts;
    uint64_t PartCount;
    void *Control;
    uint64_t ControlBytes;
    int Flags;
  } Message = {nullptr, 0, Parts, Count, nullptr, 0, 0};
  long Sent;
  do
    Sent = sys::call6(sys::Sendmsg, Fd, long(&Message), NoSignal);
  while (Sent == -sys::Eintr);
  if (Sent < 0)
    return false;
  // What the socket did not take at once, part by part.
  for (unsigned I = 0; I < Count; I++) {
    uint64_t Done = uint64_t(Sent) < Parts[I].Length ? uint64_t(Sent) : Parts[I].Length;
    Sent -= long(Done);
    const char *Rest = static_cast<const char *>(Parts[I].Base) + Done;
    if (!sys::everyByte(const_cast<char *>(Rest), Parts[I].Length - Done,
                        [Fd](long At, uint64_t Left) {
                          return sys::call6(sys::Sendto, Fd, At, long(Left), NoSignal, 0, 0);
                        }))
      return false;
  }
  return true;
}

long socketReceiveSome(int Fd, void *Into, uint64_t Bytes) {
  return sys::call6(sys::Recvfrom, Fd, long(Into), long(Bytes), DontWait, 0, 0);
}

WaitResult socketWaitReadable(int Fd, int Ms, int WakeFd) {
  struct {
    int Fd;
    short Events, Returned;
  } Poll[2] = {{Fd, 1 /* POLLIN */, 0}, {WakeFd, 1, 0}};
  struct {
    long Seconds, Nanoseconds;
  } Limit = {Ms / 1000, long(Ms % 1000) * 1000000};
  long R;
  do
    R = sys::call6(sys::Ppoll, long(Poll), WakeFd < 0 ? 1 : 2, Ms < 0 ? 0 : long(&Limit), 0, 8);
  while (R == -sys::Eintr); // the rest of the wait is not worth tracking
  if (R == 0)
    return WaitResult::TimedOut;
  return Poll[0].Returned || !Poll[1].Returned ? WaitResult::Readable : WaitResult::Woken;
}

bool socketPeerGone(int Fd) {
  constexpr short PollIn = 0x1, PollErr = 0x8, PollHup = 0x10, PollRdHup = 0x2000;
  struct {
    int Fd;
    short Events, Returned;
  } Poll = {Fd, PollIn | PollRdHup, 0};
  struct {
    long Seconds, Nanoseconds;
  } Now = {0, 0};
  long R;
  do
    R = sys::call6(sys::Ppoll, long(&Poll), 1, long(&Now), 0, 8);
  while (R == -sys::Eintr);
  return R < 0 || (Poll.Returned & (PollErr | PollHup | PollRdHup));
}

void configureTcpLink(int Fd, int TimeoutMs) {
  constexpr long SolSocket = 1, SoKeepalive = 9, IpprotoTcp = 6, TcpNodelay = 1, TcpKeepidle = 4,
                 TcpKeepintvl = 5, TcpKeepcnt = 6;
  int Seconds = TimeoutMs > 3000 ? TimeoutMs / 3000 : 1;
  struct {
    long Level, Name;
    int Value;
  } const Options[] = {{IpprotoTcp, TcpNodelay, 1},
                       {SolSocket, SoKeepalive, 1},
                       {IpprotoTcp, TcpKeepidle, Seconds},
                       {IpprotoTcp, TcpKeepintvl, Seconds},
                       {IpprotoTcp, TcpKeepcnt, 3}};
  for (const auto &O : Options)
    sys::call6(sys::Setsockopt, Fd, O.Level, O.Name, long(&O.Value), sizeof O.Value);
}

} // namespace popcorn
