//===- Protocol.h - The words both ends of the protocol share ---*- C++ -*-===//
//
// Values of the coherence protocol's message fields (link/Message.h), as
// the directory and the nodes use them.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_PROTOCOL_H
#define POPCORN_RUNTIME_PROTOCOL_H

#include "link/Message.h"

namespace popcorn {

/// What a node wants a page for.  An atomic update wants it writable: a
/// read-modify-write on a shared copy could not be atomic with respect to
/// the other copies.
enum class Access : uint8_t { Read = PageAccessRead, Write = PageAccessWrite };

/// Where a granted page's bytes come from.
enum class GrantData : uint8_t {
  Held = GrantHeld,         // the node's own read-only copy: an upgrade
  Zero = GrantZero,         // never written since it was mapped
  FromHome = GrantFromHome, // home's copy, sent with the grant
};

/// What an owner keeps of a page recalled from it.
enum class RecallMode : uint8_t {
  Downgrade = RecallDowngrade, // the page, read-only
  Invalidate = RecallInvalidate,
};

inline constexpr uint8_t nodeBit(int Node) { return uint8_t(1u << Node); }

} // namespace popcorn

#endif
