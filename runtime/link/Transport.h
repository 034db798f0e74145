//===- Transport.h - How a link's bytes travel ------------------*- C++ -*-===//
//
// Below the messages (Channel.h): a transport moves bytes between two
// processes.  Every link here is a stream socket, and the socket transport
// serves both kinds, which differ only in how the socket is made: a Unix
// socket pair to a node home starts (HomeNode.cpp), TCP to popcorn-node.
// Another transport (RDMA through UCX, memory shared by processes of one
// machine) provides the same three operations on a handle of its own and a
// TransportKind of its own; the messages above do not change.
//
// Raw system calls only: a transport is used in a page-fault handler and
// on a node whose libc has never been initialized.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_TRANSPORT_H
#define POPCORN_RUNTIME_TRANSPORT_H

#include <stdint.h>

namespace popcorn {

/// One part of a message being sent (the layout of struct iovec).
struct SendPart {
  const void *Base;
  uint64_t Length;
};

/// Which transport a link uses.  A switch, not a table of function
/// pointers: such a table would be in the program's data, whose pages a
/// remote node fetches through this very code.
enum class TransportKind : uint8_t {
  Socket, // stream sockets: Unix socket pairs and TCP (the zeroed state)
};

// Each transport provides these three, on a handle of its own.

/// Sends every byte of Parts, in order, as one unit when it can (so the
/// peer wakes up once); false if the peer is gone.
bool socketSendParts(int Fd, SendPart *Parts, unsigned Count);
/// Up to Bytes into Into without waiting: how many came, 0 at the end of
/// the stream, -EAGAIN if none yet, another negative errno value.  Into
/// may be the program's memory: where the kernel cannot write, -EFAULT,
/// and the bytes not counted are still to come (so do stream sockets).
long socketReceiveSome(int Fd, void *Into, uint64_t Bytes);
/// How a wait for the link ended.
enum class WaitResult : uint8_t {
  Readable, // something can be received, or the peer is gone
  TimedOut,
  Woken, // WakeFd became readable first
};

/// Blocks at most Ms milliseconds (Ms < 0: as long as it takes) until
/// something can be received or the peer is gone, or, if WakeFd >= 0,
/// until WakeFd is readable.  (Channel polls with receives before it
/// blocks.)
WaitResult socketWaitReadable(int Fd, int Ms, int WakeFd);

/// Whether the peer hung up or the link failed, seen without waiting:
/// between trips a node says nothing, so this is how home learns, before
/// it sends the thread, that the node ended meanwhile.
bool socketPeerGone(int Fd);

/// A TCP link sends each message at once (no Nagle delay on a page
/// request) and notices a peer machine that is gone within about
/// TimeoutMs of silence (keepalive probes).
void configureTcpLink(int Fd, int TimeoutMs);

} // namespace popcorn

#endif
