//===- HeldThreads.h - The program's other threads wait at home -*- C++ -*-===//
//
// A program of several threads moves one thread at a time, and while it
// is away the program's other threads wait at home: nothing else writes
// the pages it took along, so no page needs to be kept coherent between
// nodes (the protocol that would let them run, coherence/, is not wired in
// yet).  They wait in a handler of signal 34, which musl lets no program
// block or take (it keeps 32 to 34 for itself), queued to each with a
// value that says so; the handler blocks every other signal and sleeps on
// a futex until home lets them go.
//
// Home lets them run while the thread away waits in a call that may wait
// for one of them (a futex, a read of a pipe, a sleep): the node sends the
// pages it wrote home first and keeps none (Release), and asks for them to
// be held again when the call returns (Hold).  A thread that loops
// waiting for another without a system call is asked by home, after each
// slice it computes alone, to let them run a while (YieldRequest).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_HELDTHREADS_H
#define POPCORN_RUNTIME_HELDTHREADS_H

#include <signal.h>

namespace popcorn {

/// Home: holds every other thread of the program in the handler, waiting
/// for them at most WaitMs (-1: as long as it takes).  False if one did
/// not stop in time (one that blocks signal 34 by a system call of its
/// own); then none is held.
bool holdOtherThreads(int WaitMs);

/// Home: lets the held threads go, and returns once each has left the
/// handler.
void releaseOtherThreads();

/// Home, in signal 34's handler: whether Info asks this thread to wait,
/// and if so waits.
bool waitIfHeld(const siginfo_t &Info);

} // namespace popcorn

#endif
