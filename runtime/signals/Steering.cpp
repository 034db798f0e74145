//===- Steering.cpp - popcorn-ctl's moves, wherever the thread is ---------===//
//
// The program's data (the pending flag among it) belongs to the node the
// thread is on, so home writes it only while the thread is home, and a
// node writes it only while the thread is there.  The destination itself
// waits in each process's own state (NodeState.h).
//
//===----------------------------------------------------------------------===//
#include "signals/Steering.h"
#include "link/Transport.h"
#include "signals/SignalState.h"
#include "state/Emulation.h"
#include "state/NodeFailure.h"
#include "state/NodeState.h"
#include "support/Syscall.h"
#include <signal.h>

using namespace popcorn;

extern "C" {
extern int __popcorn_migration_pending;
void popcorn_signal_return(void);
}

namespace popcorn {
namespace {


#if defined(__x86_64__)
constexpr long RtSigqueueinfo = 129;
#else
constexpr long RtSigqueueinfo = 138;
#endif
constexpr long Eventfd2 = sys::number(290, 19);
constexpr long EfdNonblock = 04000, EfdCloexec = 02000000;
constexpr long FGetfl = 3, FSetfl = 4, FSetown = 8, FSetsig = 10, OAsync = 020000;

// The signal home sends for node E's program to see SteeringSignal.
// qemu-user maps the guest's real-time signals from 32 on to the host's
// from glibc's SIGRTMIN (34) on: guest 35 is host 37 (qemu 7.2, checked by
// tests/migrate/run-ctl-test.sh), both ways, so an emulated home names a
// native node's 35 as its 33.
int signalFor(const NodeEntry &E) {
  constexpr int QemuShift = 2;
  return SteeringSignal + (E.Emulated ? QemuShift : 0) - (homeRunsEmulated() ? QemuShift : 0);
}

// Remote: whether the page holding Address is here.  Only such a page may
// be written in a signal handler: a missing one is fetched over the link
// to home, which the interrupted code may be using.
bool pageHere(uint64_t Address) {
  NodeState &N = node();
  for (uint32_t R = 0; R < N.SharedCount; R++) {
    if (!N.Shared[R].contains(Address))
      continue;
    uint64_t Page = (Address - N.Shared[R].Low) / PageBytes;
    return N.PresentBits[R][Page / 8] & (1u << (Page % 8));
  }
  return false;
}

// Remote: sets the pending flag for news on the link, where the thread
// may be stopped: at a migration point, the link is looked at and a Steer
// there is read.  Not while an exchange is under way (the write might
// fault, and the fault be served over the link in use): its end does.
void flagLinkNews() {
  NodeState &N = node();
  if (N.ThreadHere && !N.SignalHold && !N.InFaultHandler &&
      pageHere(uint64_t(&__popcorn_migration_pending)))
    __popcorn_migration_pending = 1;
}

// Remote: the link raises SIGRTMIN+1 on arriving data, or not.
void signalOnData(bool On) {
  NodeState &N = node();
  sys::call6(sys::Fcntl, N.HomeLink.Fd, FSetfl, On ? N.LinkFlags | OAsync : N.LinkFlags);
}

void readLinkNews(NodeState &N);

// Remote, on a node home reaches by its link alone, in the handler of the
// link's signal: home's Steer asking the thread to let the others run
// (YieldRequest) is read here, where the thread may compute for ever
// without a migration point, unless an exchange is under way (which
// takes it in passing, and lets them run if it may wait).
void yieldIfAsked(uint64_t InterruptedSp) {
  NodeState &N = node();
  if (!N.OthersHeldAtHome || !N.YieldToHome || !N.ThreadHere || N.SignalHold ||
      N.InFaultHandler || N.QuietLinkDepth)
    return;
  readLinkNews(N);
  if (N.HomeLink.YieldAsked) {
    N.HomeLink.YieldAsked = false;
    N.YieldToHome(InterruptedSp);
  }
}

void onSteeringSignal(int, siginfo_t *Info, void *Context) {
  NodeState &N = node();
  if (Info->si_code > 0) { // the kernel's: POLL_IN
    // Home ended (killed): a thread computing here would not notice until
    // its next exchange, nor a node that is not home's child the end of
    // home's process.
    char Byte;
    constexpr long MsgPeek = 2, MsgDontwait = 0x40;
    if (sys::call6(sys::Recvfrom, N.HomeLink.Fd, long(&Byte), 1, MsgPeek | MsgDontwait, 0, 0) ==
        0)
      sys::exitGroup(1);
    if (N.HomeLink.TakesSteering) {
      N.LinkNews = true;
      flagLinkNews();
      yieldIfAsked(interruptedStackPointer(Context));
    }
    return;
  }
  if (Info->si_code != SiQueue || Info->si_pid != N.HomePid)
    return;
  int Target = Info->si_value.sival_int;
  if (Target == YieldRequest) {
    if (N.YieldToHome)
      N.YieldToHome(interruptedStackPointer(Context));
    return;
  }
  if (Target < 0) {
    takeSignalFromHome(-Target);
    return;
  }
  // The thread reads the flag at every migration point, so it is here
  // while the thread is, but around a wait that lets the program's other
  // threads run at home (syscalls/ForwardCalls.cpp: holdHomeThreads), whose
  // end flags the move.  A thread gone (home asked too late) takes
  // the request with it.
  if (Target < 0 || Target >= N.NodeCount || !N.ThreadHere)
    return;
  N.SteeredNode = Target + 1;
  if (pageHere(uint64_t(&__popcorn_migration_pending)))
    __popcorn_migration_pending = 1;
}

} // namespace

int nodeOfThread(int Tid) {
  NodeState &N = node();
  return Tid && Tid != N.Departing ? 0 : N.ThreadNode;
}

SteerResult steerThread(int Target, int Tid) {
  NodeState &N = node();
  if (Target < 0 || Target >= N.NodeCount || !N.Nodes[Target].Machine)
    return SteerResult::NoSuchNode;
  int Where = nodeOfThread(Tid);
  if (Where == Target)
    return SteerResult::AlreadyThere;
  if (Where == 0) {
    // One request waits at a time: another thread's is not replaced.
    if (__atomic_load_n(&N.SteeredNode, __ATOMIC_ACQUIRE) &&
        __atomic_load_n(&N.SteeredTid, __ATOMIC_RELAXED) != Tid)
      return SteerResult::Waiting;
    // If a thread is away, the request waits here for its return; the
    // flag then lands in home's stale copy of the page, and home sets it
    // again as the thread comes back (HomeNode.cpp: endTrip).
    __atomic_store_n(&N.SteeredTid, Tid, __ATOMIC_RELAXED);
    __atomic_store_n(&N.SteeredNode, Target + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&__popcorn_migration_pending, 1, __ATOMIC_RELAXED);
    return SteerResult::Requested;
  }
  if (N.Nodes[Where].remote()) {
    if (N.SteerWakeFd <= 0)
      return SteerResult::NotLocal;
    // The thread serving the node sends it (relaySteering).
    uint64_t One = 1;
    __atomic_store_n(&N.SteerToRelay, Target + 1, __ATOMIC_RELAXED);
    sys::call6(sys::Write, N.SteerWakeFd, long(&One), sizeof One);
    return SteerResult::Relayed;
  }
  if (!N.Nodes[Where].startedByHome())
    return SteerResult::NotLocal;
  return queueSteeringSignal(Where, Target) ? SteerResult::Signalled : SteerResult::SignalFailed;
}

void watchSteeringAway(int Node) {
  NodeState &N = node();
  if (!N.Nodes[Node].remote())
    return;
  if (N.SteerWakeFd <= 0) {
    long Fd = sys::call6(Eventfd2, 0, EfdNonblock | EfdCloexec);
    if (sys::failed(Fd))
      return; // popcorn-ctl is told the node cannot be reached
    N.SteerWakeFd = int(sys::outOfTheWay(Fd));
  }
  uint64_t Count;
  sys::call6(sys::Read, N.SteerWakeFd, long(&Count), sizeof Count);
  __atomic_store_n(&N.SteerToRelay, 0, __ATOMIC_RELAXED);
}

bool relaySteering(Channel &Link) {
  NodeState &N = node();
  uint64_t Count;
  sys::call6(sys::Read, N.SteerWakeFd, long(&Count), sizeof Count);
  int32_t Target = __atomic_exchange_n(&N.SteerToRelay, 0, __ATOMIC_RELAXED) - 1;
  return Target < 0 || Link.send(MessageType::Steer, &Target, sizeof Target);
}

int steeringWakeDescriptor() {
  int Fd = node().SteerWakeFd;
  return Fd > 0 ? Fd : -1;
}

void steerByLink() {
  NodeState &N = node();
  int Fd = N.HomeLink.Fd;
  N.HomeLink.TakesSteering = true;
  // Without the signal a move waits for the thread's next exchange with
  // home, which takes it in passing.  O_ASYNC is set as the thread comes.
  long Flags = sys::call6(sys::Fcntl, Fd, FGetfl);
  if (sys::failed(Flags) ||
      sys::failed(sys::call6(sys::Fcntl, Fd, FSetown, sys::call6(sys::Getpid, 0))) ||
      sys::failed(sys::call6(sys::Fcntl, Fd, FSetsig, SteeringSignal)))
    return;
  N.LinkFlags = Flags & ~OAsync;
  N.LinkSignals = true;
}

void threadArrives() {
  NodeState &N = node();
  N.HomeLink.Steered = 0;
  N.SteeredNode = 0;
  N.LinkNews = false;
  N.QuietLinkDepth = 0; // the last one left in the middle of an exchange
  N.ThreadHere = true;
  if (N.LinkSignals)
    signalOnData(true);
}

void threadLeaves() {
  NodeState &N = node();
  N.ThreadHere = false;
  if (N.LinkSignals)
    signalOnData(false);
}

void takeLinkNewsAfterExchange() {
  NodeState &N = node();
  if (N.LinkNews)
    flagLinkNews();
}

QuietLink::QuietLink() {
  NodeState &N = node();
  if (N.LinkSignals && N.ThreadHere && N.QuietLinkDepth++ == 0)
    signalOnData(false);
}

QuietLink::~QuietLink() {
  NodeState &N = node();
  if (!N.LinkSignals || !N.ThreadHere || --N.QuietLinkDepth != 0)
    return;
  signalOnData(true);
  // What came while the link was quiet raised nothing: a Steer taken in
  // passing, or one behind the answer.
  Channel &Link = N.HomeLink;
  if (Link.Steered || Link.hasReceived() ||
      socketWaitReadable(Link.Fd, 0, -1) == WaitResult::Readable)
    N.LinkNews = true;
}

bool queueSteeringSignal(int Node, long Value) {
  const NodeEntry &E = node().Nodes[Node];
  if (!E.startedByHome())
    return false;
  QueuedSignal Info = {};
  Info.Signo = signalFor(E);
  Info.Code = SiQueue;
  Info.Pid = int(sys::call6(sys::Getpid, 0));
  Info.Value = Value;
  return sys::call6(RtSigqueueinfo, E.Pid, Info.Signo, long(&Info)) == 0;
}

void installSteeringHandler() {
  struct {
    void (*Handler)(int, siginfo_t *, void *);
    unsigned long Flags;
    void (*Restorer)(void);
    uint64_t Mask;
  } Action;
  // Field by field: an initializer with addresses becomes a constant in
  // the program's data, whose pages are home's (reading it here would
  // fetch a page before the thread has arrived).
  Action.Handler = onSteeringSignal;
  Action.Flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_RESTORER;
  Action.Restorer = popcorn_signal_return;
  // A program's signal it raises arrives as it returns (SignalState.h).
  Action.Mask = ~RuntimeSignals;
  sys::call6(sys::RtSigaction, SteeringSignal, long(&Action), 0, 8);
  // The shell's SIGRTMIN asks home (Triggers.cpp); `kill -RTMIN $(pidof
  // prog)` reaches a node this executable runs in as well, which must
  // live on.
  Action.Handler = reinterpret_cast<decltype(Action.Handler)>(SIG_IGN);
  Action.Flags = SA_RESTORER;
  sys::call6(sys::RtSigaction, ShellSteeringSignal, long(&Action), 0, 8);
}

namespace {
// Remote, at a migration point or in the link signal's handler, where no
// answer is awaited: what the link has is home's Steer, which the receive
// takes.
void readLinkNews(NodeState &N) {
  N.LinkNews = false;
  Channel &Link = N.HomeLink;
  if (!Link.hasReceived() && socketWaitReadable(Link.Fd, 0, -1) != WaitResult::Readable)
    return;
  MessageHeader H;
  if (Link.receiveHeader(H, 0))
    failNode("a message from home where none was due");
}
} // namespace

int takeSteeredDestination() {
  NodeState &N = node();
  if (N.Remote && N.HomeLink.TakesSteering) {
    if (N.LinkNews)
      readLinkNews(N);
    if (N.HomeLink.Steered) {
      N.SteeredNode = N.HomeLink.Steered;
      N.HomeLink.Steered = 0;
    }
  }
  if (!N.Remote && __atomic_load_n(&N.SteeredNode, __ATOMIC_ACQUIRE)) {
    int Tid = __atomic_load_n(&N.SteeredTid, __ATOMIC_RELAXED), Away = N.Departing;
    int Self = Tid || Away ? int(sys::call6(sys::Gettid, 0)) : 0;
    if ((Tid && Tid != Self) || (Away && Away != Self)) {
      // Another thread's, or one is away (one moves at a time): the
      // threads stop at their points until the one asked can go.
      __atomic_store_n(&__popcorn_migration_pending, 1, __ATOMIC_RELAXED);
      return -1;
    }
  }
  return __atomic_exchange_n(&N.SteeredNode, 0, __ATOMIC_RELAXED) - 1;
}

void forgetSteering() {
  NodeState &N = node();
  int Tid = __atomic_load_n(&N.SteeredTid, __ATOMIC_RELAXED);
  if (Tid && Tid == sys::call6(sys::Gettid, 0)) {
    __atomic_store_n(&N.SteeredNode, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&N.SteeredTid, 0, __ATOMIC_RELAXED);
  }
}

int steeredDestination() { return node().SteeredNode - 1; }

} // namespace popcorn
