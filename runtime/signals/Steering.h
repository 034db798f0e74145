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
// A node on another host (tcp:, ssh:) cannot be signalled from home's, so
// home relays the move over the node's link: the thread serving the node
// sends a Steer message (the control thread must not write to a link
// another thread writes to), which popcorn-ctl's thread wakes through an
// eventfd.  The node's kernel tells it of the message: while the thread
// is here, its link raises SIGRTMIN+1 when data arrives (O_ASYNC,
// F_SETSIG), whose handler sets the pending flag as home's signal does,
// and the node reads the message at its next migration point.  Not for
// the answers it waits for: a page fetch and a forwarded call keep the
// link quiet (QuietLink), their receive takes a Steer in passing
// (Channel.h), and what came meanwhile is looked at after.  Nor while an
// exchange is under way: the handler then only notes the news, and the
// flag is set when the exchange ends (SignalState.h).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_STEERING_H
#define POPCORN_RUNTIME_STEERING_H

namespace popcorn {

struct Channel;

enum class SteerResult {
  Requested,    // at home: taken at the thread's next migration point
  Signalled,    // sent to the node the thread is on
  NoSuchNode,
  AlreadyThere,
  NotLocal,     // the thread is on a node home cannot reach
  SignalFailed, // the node's process is gone
  Relayed,      // sent to the node over its link
  Waiting,      // another thread's move waits at home to be taken
};

/// Home, from any thread: asks thread Tid to move to Target; Tid 0 asks
/// the thread away, if one is, else the first thread at a migration point.
SteerResult steerThread(int Target, int Tid = 0);

/// Home: the node thread Tid runs on (one thread is away at a time); Tid
/// 0 stands for the thread away, if any.
int nodeOfThread(int Tid);

/// Home, as a thread ends: a move asked of it alone is void.
void forgetSteering();

/// Home: queues SIGRTMIN with Value (a destination, or a program's signal
/// negated: SignalState.h) to node Node's process; false if home has no
/// process there or it is gone.
bool queueSteeringSignal(int Node, long Value);

/// Remote: honours SIGRTMIN queued by home with a destination, or with a
/// signal for the program.
void installSteeringHandler();

/// Remote, on a node home reaches by its link alone: the kernel signals
/// the arrival of data on the link, and receives take Steer messages.
void steerByLink();

/// Remote: a thread arrives: a move home sent for an earlier trip is void,
/// and the link signals home's news while it is here.
void threadArrives();

/// Remote: the thread leaves; the link signals no more.
void threadLeaves();

/// Remote: an exchange with home ended (no other under way): news that
/// came meanwhile sets the pending flag now.
void takeLinkNewsAfterExchange();

/// Remote: for its life, the link raises no signal for the answer the
/// thread waits for; after, what came meanwhile is news.
class QuietLink {
public:
  QuietLink();
  ~QuietLink();
  QuietLink(const QuietLink &) = delete;
  QuietLink &operator=(const QuietLink &) = delete;
};

/// Home, as the thread leaves for node Node: if home reaches it by its
/// link alone, popcorn-ctl's moves are relayed from now on, through the
/// eventfd steeringWakeDescriptor (made the first time); one asked for on
/// an earlier trip is void.
void watchSteeringAway(int Node);

/// Home: the eventfd that wakes the thread serving a node when a move is
/// to be relayed, -1 if there is none.
int steeringWakeDescriptor();

/// Home: sends Link's node the move waiting to be relayed, if any; false
/// if the link broke.
bool relaySteering(Channel &Link);

/// The destination asked for, or -1; taking it clears it.
int takeSteeredDestination();

/// Home: the destination asked for and not yet taken, or -1.
int steeredDestination();

} // namespace popcorn

#endif
