//===- RemoteNode.h - A process that runs a thread away from home -*- C++ -*-===//
//
// A remote node is the program's own executable for its ISA, started by the
// home node with POPCORN_NODE=ID:FD:KEYFD in its environment (or by
// popcorn-node, POPCORN_NODE=ID:FD).  It never
// initializes libc (libc's memory is the home node's): it reserves every
// range whose pages are home's, waits for a thread, and runs it.  A page
// is fetched from home on first touch (read-only), made writable on first
// write, and every written page goes back home with the thread.
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
RewriteError returnHome(RegisterSet &Registers, int Next);

/// Makes [Address, +Bytes) present (and writable if Write) so that the
/// kernel can use it in a system call.
void touchPages(uint64_t Address, uint64_t Bytes, bool Write);

/// Forgets this node's pages in [Address, +Bytes): home mapped or unmapped
/// the range.
void dropPages(uint64_t Address, uint64_t Bytes);

/// [Address, +Bytes) is private anonymous memory home mapped for this
/// node's thread and has not touched: zero there, so what this node held
/// there goes and its pages need not be asked for (a small range is made
/// here whole at once).  Its pages are fresh until the thread leaves.
void takeFreshRange(uint64_t Address, uint64_t Bytes);

/// The program is about to change the protection of [Address, +Bytes):
/// the pages the thread wrote there go home, and every page there is
/// asked for again, so that home's answer says how it may be touched.
void returnPages(uint64_t Address, uint64_t Bytes);

/// Before a system call, and when the thread leaves: the pages shared
/// with other processes (PageAccess.h) that the thread wrote go home, and
/// none stays here.
void syncMapSharedPages();

/// Whether the word at A lies in a page shared with other processes
/// (brought here to tell).
bool inMapSharedPage(uint64_t A);

/// The link home failed: nothing sensible can go on.
[[noreturn]] void lostHome();

} // namespace popcorn

#endif
