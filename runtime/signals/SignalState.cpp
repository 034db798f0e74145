//===- SignalState.cpp - The program's signals follow its thread ----------===//
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/NodeState.h"
#include "support/Syscall.h"

extern "C" void popcorn_signal_return(void);

namespace popcorn {

KernelSigaction ProgramFaultAction;
KernelStack ProgramSignalStack;

namespace {
constexpr long SigBlock = 0, SigUnblock = 1, SigSetmask = 2;

// Signals of Actions whose handler has SA_RESETHAND.
uint64_t resettingSignals(const KernelSigaction *Actions) {
  uint64_t Signals = 0;
  for (int S = 1; S <= SignalCount; S++)
    if (resetsOnDelivery(Actions[S - 1]))
      Signals |= signalBit(S);
  return Signals;
}

// Home: whether a handler with SA_RESETHAND ran here since the actions
// were read, which reset its action without a call.
bool resetSinceRead(const NodeState &N) {
  for (int S = 1; S <= SignalCount; S++) {
    if (!(N.ResettingSignals & signalBit(S)))
      continue;
    KernelSigaction Now{};
    sys::call6(sys::RtSigaction, S, 0, long(&Now), 8);
    if (Now.Handler != N.SignalActions[S - 1].Handler)
      return true;
  }
  return false;
}

// Home: reads the program's actions from the kernel, once per change.
// SignalActionsRead is one more than the count of changes it saw, so
// that a node's SignalActionsSent, 0 at first, differs from it.  SIGSEGV's
// is read too, for ProgramFaultAction; a node does not take it from the
// table (takeSignalActions), and home never blocks it.
void readActions(NodeState &N) {
  if (N.SignalActionsRead == N.SignalActionsChanged + 1) {
    if (!resetSinceRead(N))
      return;
    noteSignalActionSet();
  }
  N.HandledSignals = 0;
  for (int S = 1; S <= SignalCount; S++) {
    KernelSigaction &A = N.SignalActions[S - 1];
    A = KernelSigaction{};
    if (S != SignalFault && (RuntimeSignals & signalBit(S)))
      continue;
    sys::call6(sys::RtSigaction, S, 0, long(&A), 8);
    // musl's pthread_cancel signal is for the thread at home that serves
    // one away: a cancellation point it runs for it (ServeCalls.cpp) acts
    // on it there.  The others with a handler go where the thread is.
    if (A.Handler > 1 && !(RuntimeSignals & signalBit(S)) && S != CancelSignal)
      N.HandledSignals |= signalBit(S);
  }
  N.ResettingSignals = resettingSignals(N.SignalActions);
  N.SignalActionsRead = N.SignalActionsChanged + 1;
}

// Sends this thread each of Signals.
void raiseInThisThread(uint64_t Signals) {
  long Pid = sys::call6(sys::Getpid, 0), Tid = sys::call6(sys::Gettid, 0);
  for (int S = 1; S <= SignalCount; S++)
    if (Signals & signalBit(S))
      sys::call6(sys::Tgkill, Pid, Tid, S);
}
} // namespace

KernelStack programStackFor(uint64_t Sp) {
  constexpr int32_t SsOnstack = 1, SsDisable = 2;
  KernelStack S = ProgramSignalStack;
  if (!(S.Flags & SsDisable))
    S.Flags = Sp > S.Sp && Sp - S.Sp <= S.Size ? SsOnstack : 0;
  return S;
}

void noteSignalActionSet() { node().SignalActionsChanged++; }

bool leaveSignals(int Node, Channel &Link, uint64_t &ThreadMask) {
  NodeState &N = node();
  readActions(N);
  // Set again at every departure: the node's copy of the program's data
  // may be older (a handler with SA_RESETHAND ran there, and told home,
  // settleResetActions).
  ProgramFaultAction = N.SignalActions[SignalFault - 1];
  sys::call6(sys::Sigaltstack, 0, long(&ProgramSignalStack));
  NodeEntry &E = N.Nodes[Node];
  if (E.SignalActionsSent != N.SignalActionsRead) {
    if (!Link.send(MessageType::SignalActions, N.SignalActions, sizeof N.SignalActions))
      return false;
    E.SignalActionsSent = N.SignalActionsRead;
  }
  ThreadMask = 0;
  sys::call6(sys::RtSigprocmask, SigBlock, long(&N.HandledSignals), long(&ThreadMask), 8);
  return true;
}

void returnSignals(uint64_t ThreadMask, uint64_t Pending) {
  Pending &= ~RuntimeSignals;
  if (Pending) {
    // Held until the thread's mask is in place: one the mask blocks
    // stays pending, as it was on the node.
    sys::call6(sys::RtSigprocmask, SigBlock, long(&Pending), 0, 8);
    raiseInThisThread(Pending);
  }
  sys::call6(sys::RtSigprocmask, SigSetmask, long(&ThreadMask), 0, 8);
}

bool takeSignalActions(uint32_t Bytes) {
  NodeState &N = node();
  if (Bytes != sizeof N.SignalActions || !N.HomeLink.receivePayload(N.SignalActions, Bytes))
    return false;
  // qemu-user refuses the real-time signals it keeps for itself: those
  // the program cannot have set at home either.
  for (int S = 1; S <= SignalCount; S++)
    if (!(RuntimeSignals & signalBit(S)))
      sys::call6(sys::RtSigaction, S, long(&N.SignalActions[S - 1]), 0, 8);
  N.ResettingSignals = resettingSignals(N.SignalActions);
  return true;
}

void setThreadMask(uint64_t ThreadMask) {
  uint64_t Mask = ThreadMask & ~RuntimeSignals;
  sys::call6(sys::RtSigprocmask, SigSetmask, long(&Mask), 0, 8);
  node().ThreadMaskAtHome = Mask;
}

bool threadMaskChanged(uint64_t &Mask) {
  NodeState &N = node();
  Mask = threadMask();
  if (Mask == N.ThreadMaskAtHome)
    return false;
  N.ThreadMaskAtHome = Mask;
  return true;
}

void blockAsThreadAway(uint64_t ThreadMask) {
  uint64_t Mask = (ThreadMask & ~RuntimeSignals) | node().HandledSignals | signalBit(CancelSignal);
  sys::call6(sys::RtSigprocmask, SigSetmask, long(&Mask), 0, 8);
}

uint64_t takePendingSignals() {
  uint64_t Pending = 0;
  sys::call6(sys::RtSigpending, long(&Pending), 8);
  Pending &= ~RuntimeSignals;
  Pending |= __atomic_exchange_n(&node().HeldSignals, 0, __ATOMIC_RELAXED);
  struct {
    long Seconds, Nanoseconds;
  } Now = {0, 0};
  // Each wait takes one: a real-time signal may be queued more than once.
  for (int S = 1; S <= SignalCount; S++) {
    uint64_t One = signalBit(S);
    bool Taken = Pending & One;
    while (Taken)
      Taken = sys::call6(sys::RtSigtimedwait, long(&One), 0, long(&Now), 8) == S;
  }
  return Pending;
}

namespace {
// Every signal but the runtime's.
constexpr uint64_t ProgramSignals = ~RuntimeSignals;

// Raises the held signals in this thread.  In a signal handler they are
// blocked first: they then arrive once it returns, in the code it
// interrupted, not on the runtime's signal stack; the return restores the
// mask.
void raiseHeld(bool InHandler) {
  NodeState &N = node();
  uint64_t Held = __atomic_exchange_n(&N.HeldSignals, 0, __ATOMIC_RELAXED);
  if (!Held)
    return;
  if (InHandler)
    sys::call6(sys::RtSigprocmask, SigBlock, long(&ProgramSignals), 0, 8);
  raiseInThisThread(Held);
}
} // namespace

void watchSignalsAway(int Node) {
  NodeState &N = node();
  const NodeEntry &E = N.Nodes[Node];
  N.WatchingSignals = false;
  if (!E.startedByHome() || !N.HandledSignals)
    return;
  constexpr long NonBlock = 04000, CloseOnExec = 02000000;
  long Fd = sys::call6(sys::Signalfd4, N.AwaySignalOpen ? N.AwaySignalFd : -1,
                       long(&N.HandledSignals), 8, NonBlock | CloseOnExec);
  if (Fd < 0)
    return; // the signals wait for the thread's return, as before
  // Not a number the program would get next (from the top, as the links).
  N.AwaySignalFd = int(N.AwaySignalOpen ? Fd : sys::outOfTheWay(Fd));
  N.AwaySignalOpen = N.WatchingSignals = true;
}

int watchedSignals() {
  NodeState &N = node();
  return N.WatchingSignals ? N.AwaySignalFd : -1;
}

void signalActionSetAway(int Node) {
  NodeState &N = node();
  readActions(N);
  sys::call6(sys::RtSigprocmask, SigBlock, long(&N.HandledSignals), 0, 8);
  watchSignalsAway(Node);
}

namespace {
// Home: the signals that arrived since the last read of the signalfd.
uint64_t takeWatchedSignals() {
  NodeState &N = node();
  struct {
    uint32_t Signo;
    uint8_t Rest[124];
  } Info[8]; // the kernel's struct signalfd_siginfo
  long Got;
  uint64_t Signals = 0;
  while ((Got = sys::call6(sys::Read, N.AwaySignalFd, long(Info), sizeof Info)) > 0)
    for (long I = 0; I < Got / long(sizeof Info[0]); I++)
      if (Info[I].Signo >= 1 && Info[I].Signo <= SignalCount)
        Signals |= signalBit(int(Info[I].Signo));
  return Signals;
}
} // namespace

void passSignalsAway(int Node) {
  uint64_t Signals = takeWatchedSignals();
  for (int S = 1; S <= SignalCount; S++)
    if (Signals & signalBit(S))
      queueSteeringSignal(Node, -S);
}

namespace {
void noteForNode(int Signal) {
  __atomic_fetch_or(&node().InterruptedBy, signalBit(Signal), __ATOMIC_RELAXED);
}
} // namespace

InterruptibleCall::InterruptibleCall(Waits W, uint64_t KeptBlocked, uint64_t &Arrived)
    : Signals(0), PassOn(false), Arrived(Arrived) {
  Arrived = 0;
  NodeState &N = node();
  // HandledSignals and SignalActions are current: a node's sigaction
  // since the departure read them again (signalActionSetAway).
  if (W == Waits::No || !N.HandledSignals || !N.Nodes[N.ThreadNode].startedByHome())
    return;
  PassOn = true;
  for (int S = 1; S <= SignalCount; S++) {
    if (!(N.HandledSignals & signalBit(S)) || (KeptBlocked & signalBit(S)) ||
        (W == Waits::Restarted && (N.SignalActions[S - 1].Flags & SaRestart)))
      continue;
    KernelSigaction Noting = {uint64_t(noteForNode), SaRestorer,
                              uint64_t(popcorn_signal_return), ProgramSignals};
    if (sys::call6(sys::RtSigaction, S, long(&Noting), 0, 8) == 0)
      Signals |= signalBit(S);
  }
  if (Signals)
    sys::call6(sys::RtSigprocmask, SigUnblock, long(&Signals), 0, 8);
  N.NotingSignals = Signals;
}

void endInterruptibleCall() {
  NodeState &N = node();
  uint64_t Signals = N.NotingSignals;
  N.NotingSignals = 0;
  if (!Signals)
    return;
  sys::call6(sys::RtSigprocmask, SigBlock, long(&Signals), 0, 8);
  for (int S = 1; S <= SignalCount; S++)
    if (Signals & signalBit(S))
      sys::call6(sys::RtSigaction, S, long(&N.SignalActions[S - 1]), 0, 8);
}

InterruptibleCall::~InterruptibleCall() {
  NodeState &N = node();
  if (Signals) {
    endInterruptibleCall();
    Arrived = __atomic_exchange_n(&N.InterruptedBy, 0, __ATOMIC_RELAXED);
  }
  // Those that arrived while the call waited and did not end it (the
  // thread blocks them, or SA_RESTART) go too: pending there as the call
  // returns, as at home, and delivered when the thread unblocks them.
  if (PassOn && watchedSignals() >= 0)
    Arrived |= takeWatchedSignals();
}

void takeSignalsWithResult(uint64_t Signals) {
  for (int S = 1; S <= SignalCount; S++)
    if (Signals & signalBit(S))
      takeSignalFromHome(S);
}

int awaySignalDescriptor() {
  NodeState &N = node();
  return N.AwaySignalOpen ? N.AwaySignalFd : -1;
}

void awaySignalDescriptorMoved(int Fd) { node().AwaySignalFd = Fd; }

void takeSignalFromHome(int Signal) {
  NodeState &N = node();
  if (Signal < 1 || Signal > SignalCount || (RuntimeSignals & signalBit(Signal)))
    return;
  __atomic_fetch_or(&N.HeldSignals, signalBit(Signal), __ATOMIC_RELAXED);
  // The steering handler blocks the program's signals: this one arrives
  // when it returns.
  if (!N.SignalHold && !N.InFaultHandler)
    raiseHeld(false);
}

namespace {
void hold() { node().SignalHold++; }

void release() {
  NodeState &N = node();
  if (--N.SignalHold == 0 && !N.InFaultHandler) {
    takeLinkNewsAfterExchange();
    raiseHeld(false);
  }
}
} // namespace

SignalsHeld::SignalsHeld() { hold(); }
SignalsHeld::~SignalsHeld() { release(); }
SignalsOpen::SignalsOpen() { release(); }
SignalsOpen::~SignalsOpen() { hold(); }

void faultHandlerBegins() { node().InFaultHandler++; }

void faultHandlerEnds() {
  NodeState &N = node();
  if (--N.InFaultHandler == 0 && !N.SignalHold) {
    takeLinkNewsAfterExchange();
    raiseHeld(true);
  }
}

void clearSignalHolds() {
  NodeState &N = node();
  N.SignalHold = 0;
  N.InFaultHandler = 0;
}

uint64_t threadMask() {
  uint64_t Mask = 0;
  sys::call6(sys::RtSigprocmask, SigBlock, 0, long(&Mask), 8);
  return Mask;
}

} // namespace popcorn
