//===- SystemCalls.cpp - libc's system calls on every node ----------------===//
//
// At home a call runs here, but for the mapping calls (home places every
// mapping: memory/AddressSpace.h) and those that would touch the
// runtime's own descriptors; on a remote node ForwardCalls.cpp runs it.
//
//===----------------------------------------------------------------------===//
#include "syscalls/SystemCalls.h"
#include "control/ControlSocket.h"
#include "memory/AddressSpace.h"
#include "signals/SignalState.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include "syscalls/RuntimeDescriptors.h"

using namespace popcorn;

// A move asked for and still waiting when the program ends: the thread
// reached no migration point after the request.  Said, since whoever asked
// waited for it (popcorn-ctl answered that the thread would move at its
// next point).  A timer's request only if the thread never moved: one may
// always come in a run's last milliseconds.
static void reportUntakenRequest(const NodeState &N) {
  if (N.Quiet || (!N.SteeredNode && !(N.SignalledMigration && !N.Migrations)))
    return;
  Line L;
  L << "popcorn: ";
  if (N.SteeredNode)
    L << "the move to node " << uint64_t(N.SteeredNode - 1) << " that popcorn-ctl asked for";
  else
    L << "the move POPCORN_MIGRATE asked for";
  L << " was not taken: the thread reached no migration point after the request (a loop "
       "that calls nothing, or only another file's functions, has none unless built with "
       "-fpopcorn-loop-period=auto)";
}

namespace {
constexpr long ClockNanosleep = sys::number(230, 115);

// Home: a sleep, which the kernel never restarts after a handler, goes on
// through holds of the program's threads (HeldThreads.h): to the thread
// they are not there.  Until the time it would have ended, on its clock.
long sleepThroughHolds(long Number, long A, long B, long C, long D) {
  NodeState &N = node();
  constexpr long Monotonic = 1, AbsoluteTime = 1, Billion = 1000000000;
  struct Time {
    long Seconds, Nanoseconds;
  } End, Now;
  bool Relative = Number == sys::Nanosleep || !(B & AbsoluteTime);
  long Clock = Number == sys::Nanosleep ? Monotonic : A;
  auto *Asked = reinterpret_cast<const Time *>(Number == sys::Nanosleep ? A : C);
  auto *Left = reinterpret_cast<Time *>(Number == sys::Nanosleep ? B : D);
  if (!Asked || (Relative && sys::call6(sys::ClockGettime, Clock, long(&End))))
    return sys::call6(Number, A, B, C, D);
  if (Relative) {
    End = {End.Seconds + Asked->Seconds, End.Nanoseconds + Asked->Nanoseconds};
    if (End.Nanoseconds >= Billion)
      End = {End.Seconds + 1, End.Nanoseconds - Billion};
  } else {
    End = *Asked;
  }
  uint32_t Holds = __atomic_load_n(&N.HoldGeneration, __ATOMIC_ACQUIRE);
  long R = sys::call6(Number, A, B, C, D);
  bool Again = false;
  while (R == -sys::Eintr && __atomic_load_n(&N.HoldGeneration, __ATOMIC_ACQUIRE) != Holds) {
    Holds = __atomic_load_n(&N.HoldGeneration, __ATOMIC_ACQUIRE);
    R = sys::call6(ClockNanosleep, Clock, AbsoluteTime, long(&End), 0);
    Again = true;
  }
  // A signal of the program's ended it after all: what was left is from
  // the end the first call had.
  if (R == -sys::Eintr && Again && Relative && Left &&
      !sys::call6(sys::ClockGettime, Clock, long(&Now))) {
    long Nanoseconds = (End.Seconds - Now.Seconds) * Billion + End.Nanoseconds - Now.Nanoseconds;
    if (Nanoseconds < 0)
      Nanoseconds = 0;
    *Left = {Nanoseconds / Billion, Nanoseconds % Billion};
  }
  return R;
}
} // namespace

// musl's cancellable calls, once pthread_cancel is linked
// (libc-patches/common/0009-cancellable-calls-through-runtime.patch):
// straight to the kernel at home, which keeps its own descriptors from
// close and sleeps from holds only; through the runtime on a node, which
// runs them where their rows say.
extern "C" int __popcorn_cancellable_call_direct(long Number) {
  return !node().Remote && Number != sys::Close && Number != sys::Nanosleep &&
         Number != ClockNanosleep;
}

extern "C" long __popcorn_syscall(long Number, long A, long B, long C, long D, long E, long F) {
  NodeState &N = node();
  if (N.Remote) {
    long Args[SyscallArguments] = {A, B, C, D, E, F};
    return remoteSyscall(Number, Args);
  }
  noteMappingCall(Number, A, B, C, D);
  // dup2 onto one of the runtime's descriptors gets it; the runtime's
  // moves.  (Not a case below: dup2 is -1 on aarch64, as is arch_prctl.)
  if (sys::Dup2 >= 0 && Number == sys::Dup2 && A != B)
    moveRuntimeDescriptor(B);
  switch (Number) {
  case sys::Mmap:
    return homeMmap(A, B, C, D, E, F);
  case sys::Munmap:
    return homeMunmap(A, B);
  case sys::Mremap:
    return homeMremap(A, B, C, D, E);
  case sys::Brk: // the heap comes from the arena too (musl falls back to mmap)
    return -sys::Enomem;
  case sys::Close:
    // A program that closes every descriptor past the standard streams
    // (as daemons do) would cut the links to its nodes: to it they are
    // not open.
    if (isRuntimeDescriptor(A))
      return -sys::Ebadf;
    break;
  case sys::ExitGroup:
    closeControlSocket();
    reportUntakenRequest(N);
    break;
  case sys::Dup3:
    if (A != B)
      moveRuntimeDescriptor(B);
    break;
  case sys::CloseRange:
    return closeProgramRange(uint32_t(A), uint32_t(B), C);
  case sys::RtSigaction:
    if (B)
      noteSignalActionSet();
    break;
  case sys::Nanosleep:
  case ClockNanosleep:
    return sleepThroughHolds(Number, A, B, C, D);
  }
  return sys::call6(Number, A, B, C, D, E, F);
}
