//===- Messages.h - The protocol's messages, checked ------------*- C++ -*-===//
//
// A node's coherence messages (link/Message.h: PageAsk, PageInvalidated,
// PageRecalled) are checked whole before the directory sees them: the
// node is one of the program's, the payload has its type's size exactly
// (a recall's data included), its fields take their defined values and
// its padding is zero, the address is a page's and the program's (below
// the top of user space, not page zero), and an answer's page is mapped
// or being unmapped: the directory sends Invalidate and Recall for no
// other, and an unmap waits for every answer.  A request may name any
// page: one that no mapping holds is the program's SIGSEGV, and the
// directory answers it so.
//
// Home's messages to a node are checked likewise before NodePages sees
// them.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_COHERENCE_MESSAGES_H
#define POPCORN_RUNTIME_COHERENCE_MESSAGES_H

#include "coherence/PageDirectory.h"

namespace popcorn {

/// Above this no program address lies, on either ISA (47 bits of user
/// space on x86-64; the arena and image sit far below aarch64's 48).
inline constexpr uint64_t UserSpaceEnd = uint64_t(1) << 47;

enum class MessageError : uint8_t {
  None,
  BadNode,        // the link's node is not one of the program's
  NotCoherence,   // not a message of the protocol's, or not this way
  BadSize,        // not its type's size
  BadField,       // a field outside its values, or padding not zero
  Unaligned,      // not a page's address
  OutsideProgram, // page zero, or above user space
  Unmapped,       // an answer about a page no mapping holds
};

const char *describe(MessageError E);

/// A node's message, checked.
struct NodeEvent {
  enum Kind : uint8_t { Ask, Invalidated, Recalled } What;
  int From;
  Access Wanted;       // Ask
  uint64_t Page;
  const uint8_t *Data; // Recalled: the page's bytes, in the payload
};

MessageError decodeFromNode(const MessageHeader &Header, const uint8_t *Payload, int From,
                            const PageDirectory &Directory, NodeEvent &Out);

/// Hands Event to the directory (the recalled bytes must be in home's
/// copy already).
DirectoryError apply(PageDirectory &Directory, const NodeEvent &Event, ActionList &Out);

/// Home's message to this node, checked.
struct HomeEvent {
  enum Kind : uint8_t { Grant, Denied, Invalidate, Recall } What;
  Access Granted;
  GrantData Data;
  RecallMode Mode;
  uint64_t Page;
  const uint8_t *Bytes; // Grant from home: the page's bytes
};

MessageError decodeFromHome(const MessageHeader &Header, const uint8_t *Payload,
                            HomeEvent &Out);

} // namespace popcorn

#endif
