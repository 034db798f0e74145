//===- Thread.cpp - The runtime's state of one thread ---------------------===//
#include "migration/Thread.h"
#include "FrameCursor.h"
#include "memory/AddressSpace.h"
#include "state/NodeState.h"
#include "support/Syscall.h"
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

namespace popcorn {

extern "C" const size_t __popcorn_pthread_size; // musl's sizeof(struct pthread)
extern "C" void __restore_rt();

namespace {
constexpr uint64_t RuntimeStackBytes = 256 * 1024;
constexpr uint32_t MaxFrames = 1 << 16;
constexpr uint64_t Page = 4096;

// musl's struct pthread keeps a word for the runtime at a fixed offset from
// the thread pointer (libc-patches/common/0001-object-stack.patch).
ThreadState **stateSlot() {
  auto *Tp = static_cast<char *>(__builtin_thread_pointer());
#if defined(__x86_64__)
  return reinterpret_cast<ThreadState **>(Tp + 0x38);
#else
  return reinterpret_cast<ThreadState **>(Tp - 32);
#endif
}

uint64_t roundDown(uint64_t V) { return V & ~(Page - 1); }

// The lowest address the thread's native stack may reach.
uint64_t stackLimit(uint64_t High) {
  if (gettid() == getpid()) {
    // The main thread's stack grows on demand up to its limit.
    struct rlimit Limit;
    uint64_t Bytes = 8 << 20;
    if (!getrlimit(RLIMIT_STACK, &Limit) && Limit.rlim_cur < Bytes)
      Bytes = Limit.rlim_cur;
    return High - Bytes;
  }
  pthread_attr_t Attr;
  void *Low = nullptr;
  size_t Size = 0;
  if (pthread_getattr_np(pthread_self(), &Attr) || pthread_attr_getstack(&Attr, &Low, &Size))
    return High;
  return uint64_t(Low);
}
} // namespace

// The slot of a thread that began to end before it had a state.
ThreadState *const EndingWithoutState = reinterpret_cast<ThreadState *>(1);

ThreadState *existingThread() {
  ThreadState *T = *stateSlot();
  return T == EndingWithoutState ? nullptr : T;
}

void noteThreadEnding() {
  ThreadState **Slot = stateSlot();
  if (*Slot && *Slot != EndingWithoutState)
    (*Slot)->Exiting = true;
  else
    *Slot = EndingWithoutState;
}

bool threadEnding() {
  ThreadState *T = *stateSlot();
  return T == EndingWithoutState || (T && T->Exiting);
}

ThreadState *currentThread() {
  ThreadState **Slot = stateSlot();
  if (*Slot == EndingWithoutState)
    return nullptr;
  if (*Slot)
    return *Slot;
  uint64_t Bytes = RuntimeStackBytes + sizeof(ThreadState) + MaxFrames * sizeof(FramePair);
  uint8_t *Memory = sys::mapWithGuard((Bytes + Page - 1) & ~(Page - 1));
  if (!Memory)
    return nullptr;
  auto *T = reinterpret_cast<ThreadState *>(Memory + RuntimeStackBytes);
  T->RuntimeStackTop = Memory + RuntimeStackBytes;
  T->Scratch = reinterpret_cast<FramePair *>(T + 1);
  T->MaxFrames = MaxFrames;
  *Slot = T;
  return T;
}

bool setUpStackRegions(ThreadState &T, const popcorn_metadata *Metadata, RegisterSet &Source) {
  IsaTables Tables(Metadata, uint16_t(Source.Machine));
  if (!Tables.valid())
    return false;
  FrameCursor Cursor(Tables, Source);
  StepResult Step;
  while ((Step = Cursor.step()) == StepResult::Caller) {
  }
  if (Step != StepResult::Base)
    return false;
  uint64_t High = Cursor.cfa();
  uint64_t Limit = stackLimit(High);
  // A rewrite leaves room below Limit for what lies above High (argv, env),
  // which counts against the limit too.
  uint64_t Low = gettid() == getpid() ? Limit + 64 * 1024 : Limit;
  if (Low >= High)
    return false;
  uint64_t Bytes = roundDown(High - Low);
  uint8_t *Other = node().ArenaReady ? reinterpret_cast<uint8_t *>(arenaMapStack(Bytes))
                                     : sys::mapWithGuard(Bytes);
  if (!Other)
    return false;
  T.Regions[0] = {Low, High};
  T.Reach = {(Limit + Page - 1) & ~(Page - 1), High};
  T.Regions[1] = {uint64_t(Other), uint64_t(Other) + Bytes};
  T.Current = 0;
  T.RegionsReady = true;
  return true;
}

void carryObjectStack(const RegisterSet &Source, uint16_t Machine) {
  if (Source.Machine == Machine)
    return;
  uint64_t Self = threadPointerFor(EmX86_64, Source);
  auto *X86_64 = reinterpret_cast<uint64_t *>(Self + 0x30);
  auto *AArch64 = reinterpret_cast<uint64_t *>(Self + __popcorn_pthread_size - 24);
  if (Machine == EmAArch64)
    *AArch64 = *X86_64;
  else
    *X86_64 = *AArch64;
}

uint64_t signalReturnAddress() { return reinterpret_cast<uint64_t>(&__restore_rt); }

uint64_t threadPointerFor(uint16_t Machine, const RegisterSet &Current) {
  uint64_t Self = Current.ThreadPointer;
  if (Current.Machine == EmAArch64)
    Self -= __popcorn_pthread_size;
  return Machine == EmAArch64 ? Self + __popcorn_pthread_size : Self;
}

} // namespace popcorn
