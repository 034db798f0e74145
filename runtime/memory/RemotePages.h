//===- RemotePages.h - A remote node's pages, as calls and moves need them -*- C++ -*-===//
//
// Away from home, a page of the program's is fetched from home on first
// touch (read-only: RemoteFaults.cpp), made writable on first write, and
// every written page goes back home: with the thread, or before a call
// that needs home to have it.  What the rest of a remote node asks of its
// pages: the system calls it makes (syscalls/) and its role (nodes/).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_MEMORY_REMOTEPAGES_H
#define POPCORN_RUNTIME_MEMORY_REMOTEPAGES_H

#include <stdint.h>

namespace popcorn {

/// Installs the SIGSEGV handler that brings home's pages in, on a signal
/// stack of its own.
void installFaultHandler();

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
/// with other processes (memory/PageAccess.h) that the thread wrote go home, and
/// none stays here.
void syncMapSharedPages();

/// Whether the word at A lies in a page shared with other processes
/// (brought here to tell).
bool inMapSharedPage(uint64_t A);

/// The thread leaves: every page it wrote goes home, in runs.
void sendWrittenPages();

} // namespace popcorn

#endif
