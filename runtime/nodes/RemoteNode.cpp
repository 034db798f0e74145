//===- RemoteNode.cpp - A process that runs a thread away from home -------===//
#include "nodes/RemoteNode.h"
#include "nodes/HomeNode.h"
#include "memory/AddressSpace.h"
#include "memory/NodeMappings.h"
#include "memory/RemotePages.h"
#include "memory/RemotePageSets.h"
#include "migration/LongJump.h"
#include "migration/Thread.h"
#include "migration/Triggers.h"
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/MigrationMetadata.h"
#include "state/NodeFailure.h"
#include "state/NodeState.h"
#include "support/ProcessMaps.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include "syscalls/SystemCalls.h"
#include "trace/Trace.h"
#include <elf.h>
#include <signal.h>

using namespace popcorn;

extern "C" {
void popcorn_signal_return(void);
}

namespace popcorn {
namespace {
constexpr uint64_t RuntimeStackBytes = 256 * 1024;
constexpr uint32_t MaxFrames = 1 << 16;
// Home's stack region is at most RLIMIT_STACK or 8 MiB (Thread.cpp).
constexpr uint64_t MaxStackBytes = 64 << 20;

constexpr uint16_t Here = sys::Here;

enum class Segment { Shared, Private, Outside };

// Home's writable segments that this image has identically hold the
// program's shared data; others that overlap this image are the home ISA's
// own (this image has its own there).
// What this process knew at its start, kept in its runtime's memory: it
// leaves its first stack, which holds the arguments, environment and
// auxiliary vector, before it takes home's ranges (with address
// randomization off here, as under a machine-wide setting, that stack is
// where home's is).
struct NodeStart {
  int KeyFd;
  const Elf64_Phdr *Phdr; // this image's, from the auxiliary vector
  uint64_t PhdrCount;
  AddressRange FirstStack; // the mapping that holds the environment
};

Segment classify(const AddressRange &R, const NodeStart &Start) {
  const Elf64_Phdr *Phdr = Start.Phdr;
  uint64_t Count = Start.PhdrCount;
  uint64_t ImageLow = ~uint64_t(0), ImageHigh = 0;
  for (uint64_t I = 0; Phdr && I < Count; I++) {
    if (Phdr[I].p_type != PT_LOAD)
      continue;
    uint64_t Low = pageDown(Phdr[I].p_vaddr), High = pageUp(Phdr[I].p_vaddr + Phdr[I].p_memsz);
    if ((Phdr[I].p_flags & PF_W) && Low == R.Low && High == R.High)
      return Segment::Shared;
    ImageLow = Low < ImageLow ? Low : ImageLow;
    ImageHigh = High > ImageHigh ? High : ImageHigh;
  }
  return R.Low < ImageHigh && R.High > ImageLow ? Segment::Private : Segment::Outside;
}

// The thread's stack at home, but for the top page, which it shares with
// the arguments and environment (a shared range, fetched from home): the
// thread runs at the same addresses here if nothing of this process's is
// there.  Else it runs in a region of the arena.
void reserveHomeStack(const StackRegion &Stack) {
  NodeState &N = node();
  uint64_t Top = pageDown(Stack.High);
  if (Stack.Low % PageBytes || Stack.Low >= Top || Stack.High - Stack.Low > MaxStackBytes ||
      !sys::reserve(Stack.Low, Top - Stack.Low, sys::MapFixedNoReplace))
    return;
  N.HomeStack = Stack;
  N.StackAtHome = true;
}

void receiveHello(const NodeStart &Start) {
  NodeState &N = node();
  HelloMessage Hello;
  if (!N.HomeLink.receiveExactly(MessageType::Hello, &Hello, sizeof Hello) ||
      Hello.Ranges > MaxSharedRanges || Hello.NodeCount > MaxNodes || !Hello.TimeoutMs)
    failNode("no greeting from the home node");
  N.HomePid = int(Hello.HomePid);
  N.HomeLink.TimeoutMs = int(Hello.TimeoutMs);
  // A node lives only as long as its home: if home ends without saying so
  // (killed), the kernel ends this process too.  Home may have ended
  // already, before the request.  A node started by popcorn-node, or by
  // a thread of home's other than the main one (the kernel's signal is for
  // the end of that thread), sees the end of its link instead.
  if (Hello.ChildOfHome) {
    sys::call6(sys::Prctl, 1 /* PR_SET_PDEATHSIG */, 9 /* SIGKILL */);
    if (sys::call6(sys::Getppid, 0) != N.HomePid)
      sys::exitGroup(1);
  } else {
    steerByLink(); // home's signals may not reach it
  }
  N.HomeMachine = uint16_t(Hello.HomeMachine);
  if (Hello.Trace)
    startTracing();
  N.NodeCount = Hello.NodeCount;
  for (int I = 0; I < N.NodeCount; I++)
    N.Nodes[I].Machine = Hello.NodeMachines[I];
  // The first stack goes if home's ranges or stack need its addresses:
  // nothing runs on it any more.
  const AddressRange &First = Start.FirstStack;
  bool FirstInTheWay = First.overlaps(Hello.HomeStack.Low, Hello.HomeStack.High);
  for (uint32_t I = 0; I < Hello.Ranges; I++)
    FirstInTheWay |= First.overlaps(Hello.Shared[I].Low, Hello.Shared[I].High);
  if (FirstInTheWay)
    sys::call6(sys::Munmap, long(First.Low), long(First.High - First.Low));
  for (uint32_t I = 0; I < Hello.Ranges; I++) {
    AddressRange R = Hello.Shared[I];
    if (R.Low % PageBytes || R.High % PageBytes || R.High <= R.Low)
      failNode("a malformed range in the greeting");
    bool Arena = R.Low == ArenaBase && R.High == ArenaBase + ArenaBytes;
    Segment Kind = Arena ? Segment::Outside : classify(R, Start);
    if (Kind == Segment::Private)
      continue;
    bool Reserved = Arena || sys::reserve(R.Low, R.High - R.Low,
                                          Kind == Segment::Shared ? sys::MapFixed
                                                                  : sys::MapFixedNoReplace);
    if (!Reserved) {
      // The thread would read this process's own memory there instead.
      // What holds it was placed at random (home's own ranges are kept
      // clear of this image's): another process will do.
      char Why[128];
      TextBuffer Text(Why, sizeof Why);
      Text << "home's memory at ";
      Text.hex(R.Low) << " is taken here";
      retryNode(Why);
    }
    uint64_t Pages = (R.High - R.Low) / PageBytes;
    N.Shared[N.SharedCount] = R;
    N.PresentBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.DirtyBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.FreshBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.ReadOnlyBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.MapSharedBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.HadBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    if (!N.PresentBits[N.SharedCount] || !N.DirtyBits[N.SharedCount] ||
        !N.FreshBits[N.SharedCount] || !N.ReadOnlyBits[N.SharedCount] ||
        !N.MapSharedBits[N.SharedCount] || !N.HadBits[N.SharedCount])
      failNode("no memory for page bookkeeping");
    N.SharedCount++;
  }
  reserveHomeStack(Hello.HomeStack);
}

void setThreadPointer(uint64_t Tp) {
#if defined(__x86_64__)
  sys::call6(sys::ArchPrctl, 0x1002 /* ARCH_SET_FS */, long(Tp));
#else
  __asm__ volatile("msr tpidr_el0, %0" ::"r"(Tp));
#endif
}

// On the runtime's stack: wait for the thread and continue it.
[[noreturn]] void waitForThread(void *) {
  NodeState &N = node();
  MessageHeader H;
  MigrateMessage M;
  bool Forgot = false;
  for (;;) {
    if (!N.HomeLink.receiveHeader(H))
      sys::exitGroup(0); // home ended: so does this node
    if (H.Type == MessageType::Forget)
      forgetChanged(H.Bytes), Forgot = true;
    else if (H.Type == MessageType::ForgetAll && !H.Bytes)
      forgetAllKept(), Forgot = true;
    else if (H.Type != MessageType::SignalActions)
      break;
    else if (!takeSignalActions(H.Bytes))
      failNode("a malformed list of signal actions");
  }
  if (Forgot)
    compactPresentList();
  threadArrives();
  TraceSpan Arrival(TraceKind::Arrive);
  if (H.Type != MessageType::Migrate || H.Bytes < sizeof M ||
      !N.HomeLink.receivePayload(&M, sizeof M))
    failNode("a malformed message where a thread was expected");
  N.ThreadTid = M.Tid;
  uint64_t StackBytes = H.Bytes - sizeof M;
  const StackRegion &Away = M.Away;
  bool AtHome = N.StackAtHome && Away.Low >= N.HomeStack.Low &&
                Away.High == N.HomeStack.High && Away.Low == M.Home.Low &&
                Away.High == M.Home.High;
  bool InArena = Away.Low >= ArenaBase && Away.High <= ArenaBase + ArenaBytes &&
                 Away.Low % PageBytes == 0 && Away.High % PageBytes == 0;
  // At home's addresses the rest of the top page (the arguments) comes
  // along with the stack.
  uint64_t End = AtHome ? pageUp(Away.High) : Away.High;
  if (!(AtHome || InArena) || M.Registers.Sp < Away.Low || M.Registers.Sp + StackBytes != End ||
      M.Registers.Machine != Here || M.Home.High <= M.Home.Low ||
      M.Home.High - M.Home.Low > MaxStackBytes || M.Setjmps.Count > SetjmpFrames::Capacity)
    failNode("a thread whose stack is not where it should be");
  if (N.Home.Low != M.Home.Low || N.Home.High != M.Home.High) {
    N.HomeStackImage = sys::mapPrivate(M.Home.High - M.Home.Low + PageBytes);
    if (!N.HomeStackImage)
      failNode("no memory for the home stack's image");
  }
  // At home's addresses the stack may grow as far as at home, and an
  // overflow faults where it would there.  Unless the stack ends on a
  // page boundary (as it does one time in 256 with the kernel's random
  // placement), its top page holds the arguments too (a shared range):
  // home sent it along, and it goes back written, with the thread.
  StackRegion Mapped = AtHome ? N.HomeStack : Away;
  uint64_t Top = pageDown(Mapped.High);
  bool SharedTop = AtHome && Mapped.High % PageBytes;
  uint8_t *Bytes = AtHome ? N.HomeStackImage + (M.Registers.Sp - Away.Low)
                          : reinterpret_cast<uint8_t *>(M.Registers.Sp);
  long Map = sys::call6(sys::Mmap, long(Mapped.Low), long(Top - Mapped.Low), sys::ProtReadWrite,
                        sys::MapPrivateAnonymous | sys::MapFixed, -1, 0);
  if (sys::failed(Map) || !N.HomeLink.receivePayload(Bytes, StackBytes))
    lostHome();
  if (SharedTop) {
    int R = rangeOf(Top);
    if (R < 0)
      failNode("home's stack top is not shared here");
    takeWrittenPage(R, Top);
  }
  if (AtHome)
    __builtin_memcpy(reinterpret_cast<void *>(M.Registers.Sp), Bytes, StackBytes);
  N.Home = M.Home;
  N.Away = Away;
  N.Setjmps = M.Setjmps;
  N.OthersHeldAtHome = M.OthersHeld;
  setThreadPointer(M.Registers.ThreadPointer);
  setThreadMask(M.SignalMask);
  noteArrivedFrames(M.Registers);
  clearSignalHolds(); // it left in the middle of returnHome's
  Arrival.finish();
  fesetenv(&M.FloatEnvironment);
  popcorn_resume(&M.Registers);
}
} // namespace

RewriteError returnHome(RegisterSet &Registers, int Next, bool Asked) {
  NodeState &N = node();
  SignalsHeld Leaving; // those that come now go home (takePendingSignals)
  settleResetActions();
  RegisterSet Out;
  int64_t Bias = int64_t(N.HomeStackImage) - int64_t(N.Home.Low);
  RewriteRequest Request{migrationMetadata(), &Registers, N.HomeMachine,
                         threadPointerFor(N.HomeMachine, Registers), N.Home, N.Scratch,
                         N.MaxFrames, Bias, signalReturnAddress()};
  TraceSpan Departure(TraceKind::Leave);
  RewriteResult Result = rewriteStack(Request, Out);
  if (Result.Error != RewriteError::None) {
    N.LastRefusal = Result;
    return Result.Error;
  }
  Departure.mark();
  Out.Gpr[0] = 0; // popcorn_migrate's result where it lands
  carryObjectStack(Registers, N.HomeMachine); // before the written pages go

  syncMapSharedPages(); // and none is kept: other processes write them meanwhile
  endNodeMappings();
  threadLeaves();
  ReturnHomeMessage M{Out, uint32_t(Next), Asked, threadMask(), takePendingSignals()};
  M.Setjmps = N.Setjmps;
  moveSetjmpFrames(M.Setjmps, Request, Result.Frames);
  fegetenv(&M.FloatEnvironment);
  uint64_t StackBytes = N.Home.High - Out.Sp;
  if (!N.HomeLink.send2(MessageType::ReturnHome, &M, sizeof M,
                        N.HomeStackImage + (Out.Sp - N.Home.Low), uint32_t(StackBytes)))
    lostHome();
  sendWrittenPages();
  Departure.finish(sizeof M + StackBytes + N.DirtyCount * PageBytes, Result.Frames);
  sendTrace(N.HomeLink);
  if (!N.HomeLink.send(MessageType::End, nullptr, 0))
    lostHome();
  keepArenaPages();
  waitForThread(nullptr);
}

namespace {
// The thread is gone from here, its pages home: the node waits for the next.
[[noreturn]] void waitForNext() {
  NodeState &N = node();
  uint64_t Low = N.StackAtHome && N.Away.High == N.HomeStack.High ? N.HomeStack.Low : N.Away.Low;
  sys::reserve(Low, pageDown(N.Away.High) - Low);
  waitForThread(nullptr);
}

// On the runtime's stack: the thread's exit goes home, and the node waits
// for the next thread.
[[noreturn]] void sendExit(void *Message) {
  NodeState &N = node();
  TraceSpan Departure(TraceKind::Leave);
  threadLeaves();
  sendTrace(N.HomeLink);
  if (!N.HomeLink.send(MessageType::ThreadExit, Message, sizeof(ThreadExitMessage)))
    lostHome();
  Departure.finish(sizeof(ThreadExitMessage), 0);
  waitForNext();
}

[[noreturn]] void forgetThreadOnStack(void *) {
  threadLeaves();
  waitForNext();
}

// Its home thread ended in a call it made (ThreadEnded): the thread is no
// more, here either.
[[noreturn]] void forgetThread() {
  popcorn_call_on_stack(node().RuntimeStackTop, forgetThreadOnStack, nullptr);
  __builtin_unreachable();
}
} // namespace

// The key home handed over in the pipe KeyFd, read once.
void authenticate(int KeyFd) {
  NodeState &N = node();
  LinkKey Key;
  if (!sys::everyByte(Key.Bytes, sizeof Key.Bytes, [KeyFd](long At, uint64_t Left) {
        return sys::call6(sys::Read, KeyFd, At, long(Left));
      }))
    failNode("no key from the home node");
  sys::call6(sys::Close, KeyFd);
  switch (authenticateHome(N.HomeLink, Key)) {
  case AuthResult::Accepted:
    return;
  case AuthResult::Refused:
    failNode("the home node failed authentication");
  case AuthResult::Lost:
    lostHome();
  }
}

// On the runtime's stack: the greeting, then the thread.
[[noreturn]] void startNode(void *Argument) {
  NodeState &N = node();
  NodeStart Start = *static_cast<const NodeStart *>(Argument); // on the first stack
  // popcorn-node authenticated the link of a node it started.
  if (Start.KeyFd >= 0)
    authenticate(Start.KeyFd);
  installFaultHandler();
  receiveHello(Start);
  // Before Ready: from then on home may signal this process.
  installSteeringHandler();
  ReadyMessage Ready = {N.StackAtHome};
  if (!N.HomeLink.send(MessageType::Ready, &Ready, sizeof Ready))
    lostHome();
  N.ReadySent = true;
  // From the top again: nothing of this function's is needed any more.
  popcorn_call_on_stack(N.RuntimeStackTop, waitForThread, nullptr);
  __builtin_unreachable();
}

void runRemoteNode(int Self, int Fd, int KeyFd, char **Envp) {
  NodeState &N = node();
  N.Remote = true;
  N.Self = Self;
  N.YieldToHome = yieldToHome;
  N.ForgetThread = forgetThread;
  N.HomeLink.open(Fd);
  N.HomeLink.Ahead = N.LinkBuffers[MaxNodes];
  N.HomeLink.TimeoutMs = DefaultTimeoutMs;
  uint8_t *RuntimeStack = sys::mapPrivate(RuntimeStackBytes);
  N.Scratch = reinterpret_cast<FramePair *>(sys::mapPrivate(MaxFrames * sizeof(FramePair)));
  N.MaxFrames = MaxFrames;
  N.SyscallBuffer = sys::mapPrivate(SyscallBufferBytes);
  N.PresentList = reinterpret_cast<uint64_t *>(sys::mapPrivate(ListCapacity * 8));
  N.MapSharedList = reinterpret_cast<uint64_t *>(sys::mapPrivate(ListCapacity * 8));
  N.Twins = sys::mapPrivate(uint64_t(MaxTwins) * PageBytes);
  N.TwinAddress = reinterpret_cast<uint64_t *>(sys::mapPrivate(MaxTwins * 8));
  N.Diff = sys::mapPrivate(MaxDiffBytes);
  N.DirtyList = reinterpret_cast<uint64_t *>(sys::mapPrivate(ListCapacity * 8));
  N.ListCapacity = ListCapacity;
  if (!RuntimeStack || !N.Scratch || !N.SyscallBuffer || !N.PresentList || !N.DirtyList ||
      !N.MapSharedList || !N.Twins || !N.TwinAddress || !N.Diff)
    failNode("no memory for the runtime");
  N.RuntimeStackTop = RuntimeStack + RuntimeStackBytes;
  if (!reserveArena())
    failNode("the arena's address range is taken in this process");
  NodeStart Start = {KeyFd, nullptr, 0, {}};
  char **Aux = Envp;
  while (*Aux)
    Aux++;
  for (auto *A = reinterpret_cast<const uint64_t *>(Aux + 1); A[0] != AT_NULL; A += 2) {
    if (A[0] == AT_PHDR)
      Start.Phdr = reinterpret_cast<const Elf64_Phdr *>(A[1]);
    if (A[0] == AT_PHNUM)
      Start.PhdrCount = A[1];
  }
  forEachMapping([&Start, Envp](uint64_t Low, uint64_t High, uint32_t) {
    if (AddressRange{Low, High}.contains(uint64_t(Envp)))
      Start.FirstStack = {Low, High};
  });
  popcorn_call_on_stack(N.RuntimeStackTop, startNode, &Start);
  __builtin_unreachable();
}

} // namespace popcorn

// musl's pthread_exit, first (libc-patches/common/0008-thread-exit-hook.patch):
// a thread of a program whose other threads wait at home ends there, where
// the kernel made it; its pages go first.  A program's only thread ends
// here, by exit (musl's pthread_exit calls it).  At home the thread moves
// no more.
extern "C" void __popcorn_thread_exit(void *Result) {
  NodeState &N = node();
  if (!N.Remote) {
    endServingThread();
    if (tracing())
      TraceSpan(TraceKind::ThreadEnd).finish();
    noteThreadEnding();
    forgetThreadCourse();
    forgetSteering();
    return;
  }
  if (!N.OthersHeldAtHome)
    return;
  settleResetActions();
  releaseHomeThreads(N.Away.High, false); // its frames are done with
  ThreadExitMessage M{uint64_t(Result)}; // sent before its stack goes
  popcorn_call_on_stack(N.RuntimeStackTop, sendExit, &M);
  __builtin_unreachable();
}
