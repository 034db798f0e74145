//===- HeldThreads.cpp - The program's other threads wait at home ---------===//
#include "signals/HeldThreads.h"
#include "state/NodeState.h"
#include "support/Signals.h"
#include "support/ProgramThreads.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

constexpr long RtTgsigqueueinfo = sys::number(297, 240);
constexpr long FutexWaitPrivate = 128, FutexWakePrivate = 129;
// The value a hold's signal carries: this tag above the hold's generation.
constexpr uint64_t HoldTag = 0x706f7063ull << 32;
constexpr unsigned MaxThreads = 1024;

void futexWait(volatile uint32_t *Word, uint32_t Value, long Nanoseconds) {
  struct {
    long Seconds, Nanoseconds;
  } Timeout = {0, Nanoseconds};
  sys::call6(sys::Futex, long(Word), FutexWaitPrivate, long(Value),
             Nanoseconds ? long(&Timeout) : 0);
}

long now() {
  struct {
    long Seconds, Nanoseconds;
  } T;
  sys::call6(sys::ClockGettime, 1 /* CLOCK_MONOTONIC */, long(&T));
  return T.Seconds * 1000000000 + T.Nanoseconds;
}

// The threads a hold has signalled, by tid: each once per hold.
struct Signalled {
  int Tids[MaxThreads];
  unsigned Count = 0;
  bool has(int Tid) const {
    for (unsigned I = 0; I < Count; I++)
      if (Tids[I] == Tid)
        return true;
    return false;
  }
};

// Signals each listed thread not signalled yet; returns how many are
// listed.  A thread that is starting or ending may block signal 34 for a
// moment (musl's pthread_create and pthread_exit block all): the signal
// waits for it, and one that ends leaves the list.
unsigned signalListed(Signalled &Sent, uint32_t Generation) {
  unsigned Listed = 0;
  int Pid = int(sys::call6(sys::Getpid, 0));
  forEachOtherThread([&](int Tid) {
    Listed++;
    if (Sent.has(Tid) || Sent.Count == MaxThreads)
      return;
    QueuedSignal Info = {};
    Info.Signo = ShellSteeringSignal;
    Info.Code = SiQueue;
    Info.Pid = Pid;
    Info.Value = long(HoldTag | Generation);
    sys::call6(RtTgsigqueueinfo, Pid, Tid, ShellSteeringSignal, long(&Info));
    Sent.Tids[Sent.Count++] = Tid;
  });
  return Listed;
}

} // namespace

bool holdOtherThreads(int WaitMs) {
  NodeState &N = node();
  if (N.OthersHeld)
    return true;
  uint32_t Generation = ++N.HoldGeneration;
  if (!Generation)
    Generation = ++N.HoldGeneration;
  __atomic_store_n(&N.HoldWord, Generation, __ATOMIC_SEQ_CST);
  Signalled Sent; // on the runtime's stack
  long Deadline = WaitMs < 0 ? 0 : now() + long(WaitMs) * 1000000;
  for (;;) {
    unsigned Listed = signalListed(Sent, Generation);
    uint32_t Held = __atomic_load_n(&N.HeldCount, __ATOMIC_SEQ_CST);
    if (Held >= Listed)
      break;
    if (Deadline && now() > Deadline) {
      N.OthersHeld = true;
      releaseOtherThreads();
      return false;
    }
    futexWait(&N.HeldCount, Held, 200000);
  }
  N.OthersHeld = true;
  return true;
}

void releaseOtherThreads() {
  NodeState &N = node();
  // Also a hold still under way (its thread ended in the middle).
  if (!N.OthersHeld && !__atomic_load_n(&N.HoldWord, __ATOMIC_SEQ_CST))
    return;
  __atomic_store_n(&N.HoldWord, 0, __ATOMIC_SEQ_CST);
  sys::call6(sys::Futex, long(&N.HoldWord), FutexWakePrivate, 0x7fffffff);
  // A thread still in the handler when the next hold begins would count
  // for it without having been asked.
  for (uint32_t Held; (Held = __atomic_load_n(&N.HeldCount, __ATOMIC_SEQ_CST));)
    futexWait(&N.HeldCount, Held, 200000);
  N.OthersHeld = false;
}

bool waitIfHeld(const siginfo_t &Info) {
  NodeState &N = node();
  auto Value = uint64_t(Info.si_value.sival_ptr);
  if (Info.si_code != SiQueue || (Value >> 32) != (HoldTag >> 32) ||
      Info.si_pid != sys::call6(sys::Getpid, 0))
    return false;
  uint32_t Generation = uint32_t(Value);
  // A signal of a hold that has ended (it timed out) asks nothing.
  if (__atomic_load_n(&N.HoldWord, __ATOMIC_SEQ_CST) != Generation)
    return true;
  uint64_t All = ~uint64_t(0);
  sys::call6(sys::RtSigprocmask, 0 /* SIG_BLOCK */, long(&All), 0, 8); // until the handler returns
  __atomic_add_fetch(&N.HeldCount, 1, __ATOMIC_SEQ_CST);
  sys::call6(sys::Futex, long(&N.HeldCount), FutexWakePrivate, 1);
  while (__atomic_load_n(&N.HoldWord, __ATOMIC_SEQ_CST) == Generation)
    futexWait(&N.HoldWord, Generation, 0);
  __atomic_sub_fetch(&N.HeldCount, 1, __ATOMIC_SEQ_CST);
  sys::call6(sys::Futex, long(&N.HeldCount), FutexWakePrivate, 1);
  return true;
}

} // namespace popcorn
