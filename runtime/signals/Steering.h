//===- Steering.h - popcorn-ctl's moves, wherever the thread is --*- C++ -*-===//
//
// A move asked for from outside the program (popcorn-ctl migrate) reaches
// the thread at its next migration point.  At home the request is written
// where the triggers look (Triggers.h); while the thread is away on a node
// home started, home queues SIGRTMIN to that process with the destination
// in si_value, and the node's handler records it the same way.  The
// program's signals home passes on to the thread go the same way, their
// number negated (SignalState.h).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_STEERING_H
#define POPCORN_RUNTIME_STEERING_H

namespace popcorn {

enum class SteerResult {
  Requested,    // at home: taken at the thread's next migration point
  Signalled,    // sent to the node the thread is on
  NoSuchNode,
  AlreadyThere,
  NotLocal,     // the thread is on a node with no process of home's
  SignalFailed, // the node's process is gone
};

/// Home, from any thread: asks the migrating thread to move to Target.
SteerResult steerThread(int Target);

/// Home: queues SIGRTMIN with Value (a destination, or a program's signal
/// negated: SignalState.h) to node Node's process; false if home has no
/// process there or it is gone.
bool queueSteeringSignal(int Node, long Value);

/// Remote: honours SIGRTMIN queued by home with a destination, or with a
/// signal for the program.
void installSteeringHandler();

/// The destination asked for, or -1; taking it clears it.
int takeSteeredDestination();

/// Home: the destination asked for and not yet taken, or -1.
int steeredDestination();

} // namespace popcorn

#endif
