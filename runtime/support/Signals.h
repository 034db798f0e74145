//===- Signals.h - The kernel's signals, as the runtime uses them -*- C++ -*-===//
//
// The kernel's signal structures and numbers, which x86-64 and aarch64
// share, and the signals the runtime keeps for itself on every node.
// signals/SignalState.h says how the program's signals follow its thread.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SUPPORT_SIGNALS_H
#define POPCORN_RUNTIME_SUPPORT_SIGNALS_H

#include <stdint.h>

namespace popcorn {

/// The kernel's struct sigaction: one layout, and the same flag and signal
/// numbers, on both ISAs; a handler has one address on every ISA.
struct KernelSigaction {
  uint64_t Handler, Flags, Restorer, Mask;
};

inline constexpr int SignalCount = 64;

/// SIGRTMIN as musl numbers it on every ISA (it keeps 32 to 34 for
/// itself): the steering signal (signals/Steering.cpp).  Not the SIGRTMIN macro:
/// that is a libc call.
inline constexpr int SteeringSignal = 35;

/// musl's SIGCANCEL: pthread_cancel's signal to the thread it cancels.
inline constexpr int CancelSignal = 33;

/// SIGRTMIN as glibc numbers it, and so shells and kill(1): musl keeps it
/// for __synccall.  Home takes it as a steering request too (migration/Triggers.cpp).
inline constexpr int ShellSteeringSignal = 34;

/// The value of home's SteeringSignal that asks a node's thread to let the
/// program's threads at home run a while (signals/HeldThreads.h): no node
/// number.
inline constexpr int YieldRequest = 0x7fff0000;

/// The kernel's siginfo for a queued signal (rt_sigqueueinfo,
/// rt_tgsigqueueinfo): the same on every 64-bit ISA.
struct QueuedSignal {
  int Signo, Errno, Code, Pad;
  int Pid;
  unsigned Uid;
  long Value;
  uint8_t Rest[128 - 32];
};
inline constexpr int SiQueue = -1; // its Code: sent with a value, as sigqueue does

/// The kernel's sa_flags the runtime sets itself.
inline constexpr uint64_t SaRestart = 0x10000000, SaRestorer = 0x04000000;

/// SIGSEGV: on a node, page faults.
inline constexpr int SignalFault = 11;

inline constexpr uint64_t signalBit(int Signal) { return uint64_t(1) << (Signal - 1); }

/// Whether delivering a signal with action A resets it to SIG_DFL.
inline bool resetsOnDelivery(const KernelSigaction &A) {
  constexpr uint64_t SaResetHand = 0x80000000;
  return A.Handler > 1 && (A.Flags & SaResetHand);
}

/// Signals whose action on a node is the runtime's, never the program's:
/// SIGSEGV brings pages in (the program's action travels as
/// ProgramFaultAction), SIGKILL and SIGSTOP have none, and steering (both
/// numbers).  A node never blocks them either.
inline constexpr uint64_t RuntimeSignals = signalBit(SignalFault) | signalBit(9) | signalBit(19) |
                                           signalBit(SteeringSignal) |
                                           signalBit(ShellSteeringSignal);

/// The kernel's stack_t: one layout on both ISAs.
struct KernelStack {
  uint64_t Sp;
  int32_t Flags;
  uint64_t Size;
};

} // namespace popcorn

#endif
