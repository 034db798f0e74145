//===- NodeFailure.h - How a remote node ends when it cannot go on -*- C++ -*-===//
//
// A remote node has nothing to fall back on: without its link home, or
// memory for its bookkeeping, the thread cannot go on anywhere.  It says
// why on stderr and ends; home then reports the node gone.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_STATE_NODEFAILURE_H
#define POPCORN_RUNTIME_STATE_NODEFAILURE_H

namespace popcorn {

/// The node cannot go on (What says why): ends it, telling home too if
/// home still waits for its Ready.
[[noreturn]] void failNode(const char *What);

/// An address home's memory needs is taken here (What says which):
/// ends the node quietly, asking home for another process (AddressTaken).
[[noreturn]] void retryNode(const char *What);

/// The link home failed: nothing sensible can go on.
[[noreturn]] void lostHome();

} // namespace popcorn

#endif
