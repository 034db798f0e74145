//===- RemoteNode.h - A process that runs a thread away from home -*- C++ -*-===//
//
// A remote node is the program's own executable for its ISA, started by the
// home node with POPCORN_NODE=ID:FD:KEYFD in its environment (or by
// popcorn-node, POPCORN_NODE=ID:FD).  It never
// initializes libc (libc's memory is the home node's): it reserves every
// range whose pages are home's, waits for a thread, and runs it.  A page
// is fetched from home on first touch (read-only), made writable on first
// write, and every written page goes back home with the thread
// (memory/RemotePages.h).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_REMOTENODE_H
#define POPCORN_RUNTIME_REMOTENODE_H

#include "RegisterSet.h"
#include "Rewrite.h"

namespace popcorn {

/// Runs this process as node Self, linked to home by Fd; the link's key
/// comes in the pipe KeyFd (-1: popcorn-node has authenticated the link).
/// Never returns.
[[noreturn]] void runRemoteNode(int Self, int Fd, int KeyFd, char **Envp);

/// Takes the thread home (then on to node Next if not 0); returns only if
/// the rewrite is refused.
RewriteError returnHome(RegisterSet &Registers, int Next, bool Asked);

} // namespace popcorn

#endif
