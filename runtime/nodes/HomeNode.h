//===- HomeNode.h - The process a program started as ------------*- C++ -*-===//
//
// The home node owns the program's address space, files and identity.  It
// starts the other nodes when a thread first goes there, sends the thread
// with its rewritten stack, and while the thread is away serves its pages
// and system calls; the thread comes back with the pages it wrote.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_HOMENODE_H
#define POPCORN_RUNTIME_HOMENODE_H

#include "RegisterSet.h"
#include "state/NodeList.h"

namespace popcorn {

/// Reads POPCORN_NODES (or takes the default table) from the environment
/// the process started with.  False with a message if it is malformed.
bool readNodeTable();

/// Sends the thread stopped with Registers to node Target.  Returns only
/// if it stays: 0 never, else an errno value.
int migrateAway(RegisterSet &Registers, int Target);

/// Home, as a thread ends (musl's pthread_exit): if it is the one serving
/// the thread away, in the middle of a call it runs for it (cancelled
/// there), the thread there ends with it and the others run again.
void endServingThread();

/// One line on stderr with what migration cost so far (POPCORN_LOG=stats).
void reportMigrations();

} // namespace popcorn

#endif
