//===- Channel.h - Whole messages over a stream socket ----------*- C++ -*-===//
//
// Raw system calls only: a channel is used in a page-fault handler and on
// a node whose libc has never been initialized.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_CHANNEL_H
#define POPCORN_RUNTIME_CHANNEL_H

#include "Message.h"

namespace popcorn {

struct Channel {
  int Fd = -1;

  /// Header and payload, all of it; false if the peer is gone.
  bool send(MessageType Type, const void *Payload, uint32_t Bytes);
  /// send() with a second part of payload after the first.
  bool send2(MessageType Type, const void *First, uint32_t FirstBytes, const void *Second,
             uint32_t SecondBytes);
  /// The next header; its payload is read with receivePayload.
  bool receiveHeader(MessageHeader &Header);
  bool receivePayload(void *Into, uint64_t Bytes);
  /// Reads and drops Bytes of payload.
  bool skip(uint64_t Bytes);
};

} // namespace popcorn

#endif
