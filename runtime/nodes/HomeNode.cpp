//===- HomeNode.cpp - The process a program started as --------------------===//
//
// The home node owns the program's address space, files and identity
// (HomeNode.h).  Here: the thread leaves (migrateAway), home serves it
// while it is away (serveAway), and it comes back.
//
//===----------------------------------------------------------------------===//
#include "nodes/HomeNode.h"
#include "control/ControlSocket.h"
#include "memory/AddressSpace.h"
#include "memory/HomePages.h"
#include "memory/ReadablePages.h"
#include "memory/RetainedPages.h"
#include "memory/WrittenPages.h"
#include "migration/LongJump.h"
#include "migration/Thread.h"
#include "nodes/StartNodes.h"
#include "signals/HeldThreads.h"
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/MigrationMetadata.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include "syscalls/SystemCalls.h"
#include "trace/Trace.h"
#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace popcorn;

extern "C" {
extern int __popcorn_migration_pending;
}

namespace popcorn {
namespace {

constexpr uint16_t Here = sys::Here;
// While the program's other threads wait at home: how long the thread
// away may go without a word before home asks it to let them run, and
// for how long they then run.
constexpr int YieldSliceMs = 50;
constexpr useconds_t YieldUs = 1000;

// A node's wait status, when known.
struct NodeEnd {
  bool Known;
  int Status;
};

// How node E's process here ended, if it has within a second: a node
// whose link broke but that still runs is ended by stopNode.
NodeEnd reapWithin(NodeEntry &E) {
  int Status;
  for (int Try = 0; Try < 100 && E.Pid > 0; Try++) {
    if (waitpid(E.Pid, &Status, WNOHANG) == E.Pid) {
      E.Pid = 0;
      return {true, Status};
    }
    usleep(10000);
  }
  return {false, 0};
}

// How node E ended, after L: End as popcorn-node reported it for a node
// on another host, else as home reaps the node's process.  Returns the
// wait status the program ends by (0: none known).
int describeEnd(Line &L, NodeEntry &E, NodeEnd End) {
  if (End.Known) {
    L << ": ";
  } else {
    End = reapWithin(E);
    if (!End.Known)
      return 0;
    // An ssh node's process here is ssh: how it ended is not the
    // program's (a signal that killed ssh is not raised here).
    if (E.How == Launcher::Ssh) {
      L << ": its ssh ";
      if (WIFSIGNALED(End.Status))
        L << "was killed by signal " << uint64_t(WTERMSIG(End.Status));
      else
        L << "exited with status " << uint64_t(WEXITSTATUS(End.Status));
      return 0;
    }
    L << ": ";
  }
  if (WIFSIGNALED(End.Status))
    L << "killed by signal " << uint64_t(WTERMSIG(End.Status));
  else
    L << "exit status " << uint64_t(WEXITSTATUS(End.Status));
  return End.Status;
}

[[noreturn]] void nodeDied(NodeEntry &E, int Id, NodeEnd End = {false, 0}) {
  int Status = 0;
  {
    Line L;
    L << "popcorn: ";
    nameNode(L, E, Id);
    if (E.Link.TimedOut) {
      L << " stopped in the middle of a message and was silent for " << uint64_t(E.Link.TimeoutMs)
        << " ms (POPCORN_TIMEOUT) while the thread was there";
    } else {
      L << " ended while the thread was there";
      Status = describeEnd(L, E, End);
    }
  }
  stopNode(E);
  closeControlSocket();
  // Killed by a signal (one the program raised there: abort, a SIGPIPE
  // it did not ignore), the program ends by it here too, as it would
  // have at home: its parent's waitpid sees the signal (gnulib's
  // test-execute).
  if (WIFSIGNALED(Status)) {
    long Signal = WTERMSIG(Status);
    KernelSigaction Default{};
    uint64_t Bit = signalBit(int(Signal));
    sys::call6(sys::RtSigaction, Signal, long(&Default), 0, 8);
    sys::call6(sys::RtSigprocmask, 1 /* SIG_UNBLOCK */, long(&Bit), 0, 8);
    sys::call6(sys::Tgkill, sys::call6(sys::Getpid, 0), sys::call6(sys::Gettid, 0), Signal);
  }
  sys::exitGroup(WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : 1);
}

// A message from a node that home refused while the link still works: a
// request beyond what the protocol carries (a bug of popcorn's), not an
// end of the node, and said so.
[[noreturn]] void refusedMessage(NodeEntry &E, int Id, const char *What) {
  if (E.Link.TimedOut || E.Link.peerGone())
    nodeDied(E, Id);
  {
    Line L;
    L << "popcorn: ";
    nameNode(L, E, Id);
    L << " sent " << What << " that home cannot serve; the program ends (a popcorn bug: please "
      << "report it)";
  }
  stopNode(E);
  closeControlSocket();
  sys::exitGroup(1);
}

// The thread stays home, or ends: the others run, and the next may leave.
void letOthersGo() {
  releaseOtherThreads();
  __atomic_store_n(&node().Departing, 0, __ATOMIC_RELEASE);
}

// The thread is home again, or ends: the others run, and the next may
// leave.  Even if it goes on to another node at once: a thread that goes
// from node to node would keep them waiting for ever.
void endTrip(int Id, ThreadState &T) {
  NodeState &N = node();
  noteThreadHome(Id);
  T.Current = 0;
  N.ThreadAway = false;
  N.ThreadNode = 0;
  // The pending flag's page came home as the node had it: a request made
  // meanwhile (SIGRTMIN: Triggers.h; popcorn-ctl for a thread at home)
  // flags it again.
  if (N.SignalledMigration || N.SteeredNode)
    __popcorn_migration_pending = 1;
  letOthersGo();
}

// On the runtime's stack, from its top (a thread that goes from node to
// node for ever must not nest a frame per trip): the thread came home on
// its way to another node, and goes there, or stays if it cannot.
[[noreturn]] void goOnward(void *Thread) {
  ThreadState &T = *static_cast<ThreadState *>(Thread);
  RegisterSet &Registers = T.Onward.Registers;
  if (int Error = migrateAway(Registers, T.Onward.Node)) {
    // Another thread's turn to be away (EBUSY) keeps it home, as at a
    // move it asked for from home.
    if (Error != EBUSY)
      Line() << "popcorn: the thread came home and stays: node " << uint64_t(T.Onward.Node)
             << " refused it";
    // popcorn_migrate's caller is told it is not where it asked to be (a
    // schedule's point, which returns nothing, keeps errno).
    if (T.Onward.Asked) {
      Registers.Gpr[0] = uint64_t(int64_t(-1));
      errno = Error;
    }
  }
  noteArrivedFrames(Registers);
  T.Migrating = false;
  popcorn_resume(&Registers);
}

// While the thread is away: its pages and system calls, until it comes back.
// Away: the stack region it runs on there, at the same addresses here.
[[noreturn]] void serveAway(NodeEntry &E, int Id, ThreadState &T, const StackRegion Away) {
  watchSignalsAway(Id);
  watchSteeringAway(Id);
  // pthread_cancel's signal waits for a waiting call run here for the
  // thread (ServeCalls.cpp), where musl acts on it: this thread's own
  // work, ended in the middle, would leave the others held.
  uint64_t Cancel = signalBit(CancelSignal);
  sys::call6(sys::RtSigprocmask, 0 /* SIG_BLOCK */, long(&Cancel), 0, 8);
  // Whether the program's other threads wait at home while it is there
  // (HeldThreads.h): the node lets them run around calls that may wait,
  // with what its stack holds from StackLow up.
  const bool OthersWait = node().OthersHeld;
  uint64_t StackLow = Away.High;
  bool Yielding = false;
  // A thread that computes there a slice without a word is asked to let
  // them run a while: it may be waiting for one of them in a loop.  By a
  // signal, or on a node home reaches by its link alone, by a Steer
  // message, whose arrival the node's kernel signals (Steering.h).
  const int WaitMs = OthersWait ? YieldSliceMs : -1;
  for (;;) {
    MessageHeader H;
    // What wakes this thread but the node: a signal to pass on, or a move
    // popcorn-ctl asked for, to relay over the link (Steering.h).
    int Wake = E.remote() ? steeringWakeDescriptor() : watchedSignals();
    if (!E.Link.receiveHeader(H, WaitMs, Wake)) {
      if (E.Link.TimedOut && !E.Link.hasReceived()) {
        int32_t Yield = YieldRequest;
        if (!E.remote())
          queueSteeringSignal(Id, YieldRequest);
        else if (!E.Link.send(MessageType::Steer, &Yield, sizeof Yield))
          nodeDied(E, Id);
        continue;
      }
      if (!E.Link.Woken)
        nodeDied(E, Id);
      if (!E.remote())
        passSignalsAway(Id); // the program's handler runs where the thread is
      else if (!relaySteering(E.Link))
        nodeDied(E, Id);
      continue;
    }
    // Heard from: the thread runs there, and so does its SIGRTMIN handler
    // (Steering.h).
    node().ThreadNode = Id;
    switch (H.Type) {
    case MessageType::PageRequest:
      if (!servePages(Id, E.Link, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::Syscall:
      if (!serveSyscall(E.Link, E.Machine, H.Bytes))
        refusedMessage(E, Id, "a system call");
      continue;
    case MessageType::TraceEvents:
      if (!receiveTrace(E.Link, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::PageData: // before a call that protects them (returnPages)
    case MessageType::PageSet:
      if (!takeWrittenBack(Id, E.Link, H, inPlaceThisTrip()))
        nodeDied(E, Id);
      continue;
    case MessageType::PageDiff: // before a system call (syncMapSharedPages)
      if (!takeDiffBack(E.Link, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::Unmap: {
      UnmapMessage M;
      if (H.Bytes != sizeof M || !E.Link.receivePayload(&M, sizeof M) ||
          !inArena(M.Address, M.Bytes) || M.Address % PageBytes || M.Bytes % PageBytes)
        nodeDied(E, Id);
      noteMappingCall(sys::Munmap, long(M.Address), long(M.Bytes), 0, 0);
      if (homeMunmap(long(M.Address), long(M.Bytes)))
        nodeDied(E, Id);
      node().SyscallsForwarded++;
      continue;
    }
    case MessageType::ThreadMask: {
      uint64_t Mask;
      if (H.Bytes != sizeof Mask || !E.Link.receivePayload(&Mask, sizeof Mask))
        nodeDied(E, Id);
      blockAsThreadAway(Mask);
      continue;
    }
    case MessageType::Release: {
      ReleaseMessage M;
      if (H.Bytes < sizeof M || !OthersWait || !E.Link.receivePayload(&M, sizeof M) ||
          M.StackLow < Away.Low || M.StackLow + (H.Bytes - sizeof M) != Away.High ||
          !E.Link.receivePayload(reinterpret_cast<void *>(M.StackLow), H.Bytes - sizeof M))
        refusedMessage(E, Id, "a release of threads it does not hold");
      StackLow = M.StackLow;
      Yielding = M.Yielding;
      releaseOtherThreads();
      continue;
    }
    case MessageType::Hold:
      if (H.Bytes || !OthersWait)
        refusedMessage(E, Id, "a hold of threads it does not hold");
      if (Yielding)
        usleep(YieldUs);
      holdOtherThreads(-1);
      if (!E.Link.send(MessageType::Held, reinterpret_cast<void *>(StackLow),
                       uint32_t(Away.High - StackLow)))
        nodeDied(E, Id);
      continue;
    case MessageType::ThreadExit: {
      // Its pages came home with its Release: the thread ends here, where
      // the kernel clears its tid and the words musl gave clone.
      ThreadExitMessage M;
      if (H.Bytes != sizeof M || !OthersWait || !E.Link.receivePayload(&M, sizeof M))
        refusedMessage(E, Id, "a thread's exit");
      endTrip(Id, T);
      pthread_exit(reinterpret_cast<void *>(M.Result)); // which notes it ending
    }
    case MessageType::NodeEnded: {
      NodeEndedMessage M;
      if (H.Bytes != sizeof M || !E.Link.receivePayload(&M, sizeof M))
        nodeDied(E, Id);
      nodeDied(E, Id, {true, M.WaitStatus});
    }
    case MessageType::Exit: {
      ExitMessage M;
      if (H.Bytes != sizeof M || !E.Link.receivePayload(&M, sizeof M))
        nodeDied(E, Id);
      if (node().ReportAtExit)
        reportMigrations();
      writeTraceFile();
      closeControlSocket();
      sys::exitGroup(M.Status);
    }
    case MessageType::ReturnHome: {
      TraceSpan Arrival(TraceKind::Arrive);
      ReturnHomeMessage M;
      const StackRegion &Home = T.Regions[0];
      if (H.Bytes < sizeof M || !E.Link.receivePayload(&M, sizeof M))
        nodeDied(E, Id);
      uint64_t StackBytes = H.Bytes - sizeof M;
      // The stack goes in after the pages: one of them may hold its top.
      if (M.Registers.Machine != Here || M.Registers.Sp < Home.Low ||
          M.Registers.Sp + StackBytes != Home.High ||
          !E.Link.receivePayload(T.Staging + (M.Registers.Sp - Home.Low), StackBytes))
        nodeDied(E, Id);
      bool InPlace = inPlaceThisTrip();
      for (;;) {
        if (!E.Link.receiveHeader(H))
          nodeDied(E, Id);
        if (H.Type == MessageType::End)
          break;
        if (H.Type == MessageType::TraceEvents && receiveTrace(E.Link, H.Bytes))
          continue;
        if (!takeWrittenBack(Id, E.Link, H, InPlace))
          nodeDied(E, Id);
      }
      if (M.Setjmps.Count > SetjmpFrames::Capacity)
        nodeDied(E, Id);
      T.Setjmps = M.Setjmps;
      memcpy(reinterpret_cast<void *>(M.Registers.Sp), T.Staging + (M.Registers.Sp - Home.Low),
             StackBytes);
      endTrip(Id, T);
      Arrival.finish();
      fesetenv(&M.FloatEnvironment);
      returnSignals(M.SignalMask, M.PendingSignals);
      if (M.Next) {
        T.Onward = {M.Registers, int(M.Next), M.Asked != 0};
        popcorn_call_on_stack(T.RuntimeStackTop, goOnward, &T);
      }
      noteArrivedFrames(M.Registers);
      T.Migrating = false;
      popcorn_resume(&M.Registers);
    }
    default:
      Line() << "popcorn: node " << uint64_t(Id) << " sent a malformed message";
      nodeDied(E, Id);
    }
  }
}

// " (3 to node 1, 4 to node 2)": which nodes the thread reached, so that a
// test of a schedule that names several can tell each was.
void reportMovesPerNode(Line &L, const NodeState &N) {
  const char *Before = " (";
  for (int I = 1; I < N.NodeCount; I++) {
    if (!N.Nodes[I].Moves)
      continue;
    L << Before << N.Nodes[I].Moves << " to node " << uint64_t(I);
    Before = ", ";
  }
  if (*Before == ',')
    L << ")";
}
} // namespace

void reportMigrations() {
  NodeState &N = node();
  Line L;
  L << "popcorn: migrations: " << N.Migrations << " away from home";
  reportMovesPerNode(L, N);
  L << ", " << N.PagesFetched
    << " pages fetched in " << N.PageRequests << " requests, " << N.PagesReturned
    << " pages written back, " << N.SyscallsForwarded << " system calls forwarded";
  if (N.Migrations && writeTrackingOff())
    L << "; pages kept on nodes checked by hashing: " << writeTrackingOff();
}

namespace {
// A node that ended while the thread was home (killed, its host's link
// dropped) is not sent the thread, which it would lose: it starts again
// as at the first move there.  One line says so.
void restartIfEnded(NodeEntry &E, int Id) {
  char Reason[96];
  TextBuffer Why(Reason, sizeof Reason);
  if (!nodeEnded(E, Why))
    return;
  if (!node().Quiet) {
    Line L;
    L << "popcorn: ";
    nameNode(L, E, Id);
    L << " ended while the thread was home (" << Reason << "); it starts again";
  }
  forgetEndedNode(Id);
}
} // namespace

namespace {
// How long a departure waits for the program's other threads to stop
// before it gives up (EBUSY): one that blocks signal 34 by a system call of
// its own never does.
constexpr int HoldWaitMs = 500;

int leave(ThreadState *T, RegisterSet &Registers, int Target, int ProgramErrno);
} // namespace

void endServingThread() {
  NodeState &N = node();
  ThreadState *T = existingThread();
  if (!N.ThreadAway || !T || __atomic_load_n(&N.Departing, __ATOMIC_ACQUIRE) != gettid())
    return;
  // Cancelled in a call it ran for the thread away (ServeCalls.cpp): the
  // thread there ends too, its pages home since the call began.
  int Id = N.ThreadNode;
  endInterruptibleCall();
  if (!N.Nodes[Id].Link.send(MessageType::ThreadEnded, nullptr, 0))
    nodeDied(N.Nodes[Id], Id);
  endTrip(Id, *T);
}

int migrateAway(RegisterSet &Registers, int Target) {
  NodeState &N = node();
  // Starting the node and flushing stdio may set errno; the thread takes
  // the program's along, as it was at the migration point.
  int ProgramErrno = errno;
  if (!N.ArenaReady)
    return ENOTSUP;
  ThreadState *T = currentThread();
  if (!T)
    return ENOMEM;
  // A stack it cannot walk to its base (a signal handler's) moves later.
  if (!T->RegionsReady && !setUpStackRegions(*T, migrationMetadata(), Registers))
    return EAGAIN;
  if (T->Current != 0)
    return EAGAIN;
  // One thread is away at a time (HeldThreads.h); one coming home may be
  // sent on at once.
  int Self = int(sys::call6(sys::Gettid, 0));
  int Free = 0;
  if (!__atomic_compare_exchange_n(&N.Departing, &Free, Self, false, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED) &&
      Free != Self)
    return EBUSY;
  int Error = leave(T, Registers, Target, ProgramErrno);
  // Here only if the thread stays.
  releaseOtherThreads();
  __atomic_store_n(&N.Departing, 0, __ATOMIC_RELEASE);
  return Error;
}

namespace {
// migrateAway's work, once the thread is the one away: returns only if it
// stays, with why.
int leave(ThreadState *T, RegisterSet &Registers, int Target, int ProgramErrno) {
  NodeState &N = node();
  const bool MainThread = sys::call6(sys::Gettid, 0) == sys::call6(sys::Getpid, 0);
  noteProgramThreads();
  leaveParentsNodes();
  NodeEntry &E = N.Nodes[Target];
  if (E.Link.Fd >= 0)
    restartIfEnded(E, Target);
  // A node that keeps the main thread's stack for it alone cannot show it
  // to the program's other threads: it starts again, sharing it.
  if (E.Link.Fd >= 0 && E.StackAtHome && !N.OneProgramThread)
    forgetEndedNode(Target);
  if (E.Link.Fd < 0) {
    // The node reserves the main thread's stack, to run it there
    // (StartNodes.h), while no other thread may need it.
    if (!startNode(Target, MainThread && N.OneProgramThread ? T->Reach : StackRegion{})) {
      // Once per node: a program that keeps trying gets one line.
      if (!N.Quiet && !E.Warned) {
        E.Warned = true;
        Line L;
        L << "popcorn: cannot start ";
        nameNode(L, E, Target);
        L << ": " << StartFailure << "; the thread stays home";
      }
      return EHOSTUNREACH;
    }
  }
  // Region 0 and the rest of its top page (the arguments): see below.
  if (!T->Staging &&
      !(T->Staging = sys::mapPrivate(T->Regions[0].High - T->Regions[0].Low + PageBytes)))
    return ENOMEM;
  // What the program printed so far reaches its files now, in order: if
  // the node fails while the thread is there, no earlier output is lost
  // with the copy of stdio's buffers the thread took along.
  fflush(nullptr);
  // The others wait while it is away, so that nothing here writes the
  // pages it takes along; after the flush, which takes stdio's locks.
  if (!N.OneProgramThread && !holdOtherThreads(HoldWaitMs))
    return EBUSY;
  // At home's stack addresses if the node has them: a program that noted
  // where its stack is (gnulib's c-stack, to tell an overflow from another
  // fault) finds it there on every node.  The rewrite then writes an image
  // of the region, since the thread runs on it.
  const bool AtHomeStack = E.StackAtHome && MainThread;
  const StackRegion &Away = AtHomeStack ? T->Regions[0] : T->Regions[1];
  uint8_t *Image = AtHomeStack ? T->Staging : reinterpret_cast<uint8_t *>(Away.Low);
  RegisterSet Out;
  RewriteRequest Request{migrationMetadata(), &Registers, E.Machine,
                         threadPointerFor(E.Machine, Registers), Away, T->Scratch, T->MaxFrames};
  Request.SignalReturn = signalReturnAddress();
  Request.WriteBias = int64_t(uint64_t(Image) - Away.Low);
  TraceSpan Departure(TraceKind::Leave);
  RewriteResult Result = rewriteStack(Request, Out);
  if (Result.Error != RewriteError::None) {
    N.LastRefusal = Result;
    return EAGAIN;
  }
  Departure.mark();
  Out.Gpr[0] = 0; // popcorn_migrate's result where it lands
  // At home's addresses the stack's top page holds the arguments too: it
  // goes along whole, which saves the node asking for it at once.
  uint64_t Sent = AtHomeStack ? pageUp(Away.High) : Away.High;
  if (Sent != Away.High)
    memcpy(Image + (Away.High - Away.Low), reinterpret_cast<void *>(Away.High),
           Sent - Away.High);
  carryObjectStack(Registers, E.Machine);
  MigrateMessage M{Out, Away, T->Regions[0]};
  M.Setjmps = T->Setjmps;
  M.OthersHeld = N.OthersHeld;
  M.Tid = int32_t(gettid());
  moveSetjmpFrames(M.Setjmps, Request, Result.Frames);
  fegetenv(&M.FloatEnvironment);
  N.Migrations++;
  E.Moves++;
  N.ThreadAway = true;
  errno = ProgramErrno;
  N.ThreadNode = Target; // ready since its Ready: steering may signal it
  if (!forgetChangedPages(Target, E.Link) || !leaveSignals(Target, E.Link, M.SignalMask) ||
      !E.Link.send2(MessageType::Migrate, &M, sizeof M, Image + (Out.Sp - Away.Low),
                    uint32_t(Sent - Out.Sp)))
    nodeDied(E, Target);
  Departure.finish(sizeof M + (Sent - Out.Sp), Result.Frames, Target);
  serveAway(E, Target, *T, Away);
}
} // namespace

} // namespace popcorn
