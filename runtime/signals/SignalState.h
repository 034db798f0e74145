//===- SignalState.h - The program's signals follow its thread --*- C++ -*-===//
//
// The program's signal actions live in home's kernel, where its signals
// arrive, and where a remote node's sigaction calls are forwarded.  A node
// needs them too: the program raises signals there (raise, abort), and
// they must find the same handlers.  So before a thread leaves, home sends
// the node every action that changed since that node last saw them
// (SignalActions message), and the thread's signal mask travels with the
// thread each way (MigrateMessage, ReturnHomeMessage).
//
// While the thread is away, home blocks every signal the program handles:
// its handler would otherwise run on home's serving loop, over memory the
// node may hold newer copies of.  It blocks those the thread blocks too
// (the thread's mask, and each change the program makes to it on a
// node).  Any other signal without a handler takes its default action at
// once (a SIGTERM still ends the program).  One with a
// handler (the alarm the program set, a child that ended, a terminal's
// SIGINT) goes on to the thread, on a node home started: home watches
// those signals with a signalfd while it waits for the node's next
// message, takes each, and queues the steering signal (Steering.h) to the
// node's process with the signal's number, negated, as its value.  The
// node raises it at once if the thread runs the program or waits in a
// call made there (a sleep or pause then returns EINTR after the handler
// ran, as at home), and holds it while the thread uses the link (a page
// fault served, a call forwarded): a handler run then could begin an
// exchange in the middle of another.  One that comes as the thread
// leaves goes home with it, pending.  Those that arrive while home runs a
// call the node forwarded go back with the call's result
// (InterruptibleCall).  A node over TCP has no process of home's; its
// signals wait, pending at home, until the thread is back.  The
// handler sees the signal raised by its own process (si_pid, si_value
// are not the sender's).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SIGNALSTATE_H
#define POPCORN_RUNTIME_SIGNALSTATE_H

#include "link/Channel.h"
#include "link/SyscallTable.h"
#include "support/Signals.h"

namespace popcorn {

/// The program's action for SIGSEGV, in the program's data: the same on
/// every node.  A remote node's own SIGSEGV handler brings pages in and
/// passes the program's own faults on to it (memory/RemoteFaults.cpp).  Home sets
/// it from its kernel's at each departure (leaveSignals).
extern KernelSigaction ProgramFaultAction;

/// The program's alternate signal stack (sigaltstack), in the program's
/// data like ProgramFaultAction: home sets it from its kernel's at each
/// departure, a node where the program sets it there (its call is
/// forwarded home).  A node's fault handler tells the program's SIGSEGV
/// handler about it (memory/RemoteFaults.cpp).
extern KernelStack ProgramSignalStack;

/// ProgramSignalStack as the kernel describes it in the context of a
/// signal that interrupted Sp (uc_stack): SS_ONSTACK if Sp is on it.
KernelStack programStackFor(uint64_t Sp);

/// The stack pointer of the code a handler interrupted, from the kernel's
/// context argument (SignalContext.cpp).
uint64_t interruptedStackPointer(const void *KernelContext);

/// Home: the program set a signal action (its sigaction, or a node's,
/// forwarded).
void noteSignalActionSet();

/// Home, as the thread leaves for node Node: sets ProgramFaultAction,
/// sends the node the actions if they changed since it last had them,
/// blocks the handled signals, and returns the thread's signal mask for
/// the MigrateMessage.  False if the link broke.
bool leaveSignals(int Node, Channel &Link, uint64_t &ThreadMask);

/// Home, as the thread is back: its mask from the node, and the signals
/// pending there, raised again here.  Signals that waited while it was
/// away are delivered now, if the mask lets them.
void returnSignals(uint64_t ThreadMask, uint64_t Pending);

/// Node: a SignalActions message of Bytes is next on the home link; false
/// if it is malformed.
bool takeSignalActions(uint32_t Bytes);

/// Node: the thread's mask, as it arrives (never blocking RuntimeSignals).
void setThreadMask(uint64_t ThreadMask);

/// Node: the thread's mask, as it leaves.
uint64_t threadMask();

/// Node, after the program's sigprocmask: whether the thread's mask
/// differs from the one home has, and the mask.  Home must block what the
/// thread blocks: a signal the program blocked here and whose action is
/// the default one (SIGTERM) would otherwise end it there.
bool threadMaskChanged(uint64_t &Mask);

/// Home, while the thread is away: it blocks ThreadMask now (a
/// ThreadMask message); home blocks those and the handled signals.
void blockAsThreadAway(uint64_t ThreadMask);

/// Node, as the thread leaves: the program's signals pending here (raised
/// while blocked) or held, taken from this process so that they go home
/// instead.
uint64_t takePendingSignals();

/// Home, as the thread leaves for node Node (after leaveSignals): watches
/// the handled signals for it (watchedSignals).
void watchSignalsAway(int Node);

/// Home, while the thread is away: the descriptor that becomes readable
/// when a handled signal arrives, to wait on with the node's link, or -1
/// (nothing to watch, or a node without a process of home's).
int watchedSignals();

/// Home: node Node set a signal action (its sigaction, forwarded): a
/// signal it now handles is blocked here too and watched, as if it had
/// been handled when the thread left (else its handler would run on
/// home's serving loop).
void signalActionSetAway(int Node);

/// Home, woken by that descriptor: passes each signal that arrived on to
/// node Node.
void passSignalsAway(int Node);

/// Home, around a call a node forwarded that may wait for another
/// process (a read of a pipe, wait4, poll: W says).  The program's handled
/// signals that would interrupt it at home interrupt it here too, without
/// running their handlers here: all but those KeptBlocked (the thread's
/// mask, or the call's own: ppoll's, pselect6's), and for a call the
/// kernel restarts, only those whose action has no SA_RESTART.  Each that
/// arrives is noted and goes to the node in the call's result message
/// (Arrived), so that the node raises it as the exchange ends and its
/// handler runs before the call returns EINTR there.  The others that
/// arrive meanwhile go with the result too, and are pending there as the
/// call returns: at home they would not have ended it either.  (Queued to the node, as the signalfd's are while the
/// thread runs there, one could come after the call returned: the program
/// then saw a write's EPIPE before its SIGPIPE handler ran, gnulib's
/// test-sigpipe.)  Nothing changes for a TCP node.
struct InterruptibleCall {
  InterruptibleCall(Waits W, uint64_t KeptBlocked, uint64_t &Arrived);
  ~InterruptibleCall();
  InterruptibleCall(const InterruptibleCall &) = delete;
  InterruptibleCall &operator=(const InterruptibleCall &) = delete;
  uint64_t Signals; // unblocked for the call
  bool PassOn;      // the others that arrive meanwhile go with the result too
  uint64_t &Arrived;
};

/// Home: the thread serving a node ends in the middle of such a call (it
/// was cancelled there): the actions it changed go back.
void endInterruptibleCall();

/// Home: the signalfd, or -1; it moved to Fd (dup2 onto it).
int awaySignalDescriptor();
void awaySignalDescriptorMoved(int Fd);

/// Node: signal Signal, passed on by home (the steering handler's call).
void takeSignalFromHome(int Signal);

/// Node: Signals, which came with a forwarded call's result (raised as
/// the exchange ends).
void takeSignalsWithResult(uint64_t Signals);

/// Node: holds the signals home passes on for the life of an exchange
/// over the link (a system call forwarded, pages sent home), and raises
/// them after it.
struct SignalsHeld {
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld &) = delete;
  SignalsHeld &operator=(const SignalsHeld &) = delete;
};

/// Node: within SignalsHeld, a call that runs here (a sleep, sigsuspend),
/// which the signals must interrupt as they would at home.
struct SignalsOpen {
  SignalsOpen();
  ~SignalsOpen();
  SignalsOpen(const SignalsOpen &) = delete;
  SignalsOpen &operator=(const SignalsOpen &) = delete;
};

/// Node: the page-fault handler begins, and ends: what it held is raised
/// as the handler returns, in the interrupted code.  Around the program's
/// own SIGSEGV handler, which it calls, it ends and begins again.
void faultHandlerBegins();
void faultHandlerEnds();

/// Node, as the thread arrives: no exchange is under way any more (the
/// thread left in the middle of one).
void clearSignalHolds();

} // namespace popcorn

#endif
