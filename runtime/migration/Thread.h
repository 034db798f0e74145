//===- Thread.h - The runtime's state of one thread -------------*- C++ -*-===//
#ifndef POPCORN_RUNTIME_THREAD_H
#define POPCORN_RUNTIME_THREAD_H

#include "RegisterSet.h"
#include "Rewrite.h"
#include "SetjmpFrames.h"

extern "C" {
// Assembly (runtime/arch): load every register of the set and jump to its pc.
[[noreturn]] void popcorn_resume(const popcorn::RegisterSet *Registers);
// Assembly: run Fn(Arg) with the stack pointer at Top.
void popcorn_call_on_stack(void *Top, void (*Fn)(void *), void *Arg);
}

namespace popcorn {

// Made on a thread's first taken migration point, in memory of its own.
struct ThreadState {
  // The thread's two native stack regions (docs/architecture.md): 0 is the
  // stack it started on, up to its base frame's CFA; 1 is mapped by the
  // runtime.  A rewrite writes the region the thread is not on.
  StackRegion Regions[2];
  StackRegion Reach; // region 0 and below it what the stack may grow to
  int Current;
  bool RegionsReady;
  bool Pending;         // a rewrite was refused: retry at the next point
  uint64_t Points;      // migration points taken
  uint8_t *RuntimeStackTop;
  uint8_t *Staging;     // a copy of region 0 while a thread comes home
  FramePair *Scratch;
  uint32_t MaxFrames;
  SetjmpFrames Setjmps; // while the thread is home
  bool Exiting;         // in musl's pthread_exit: it moves no more
  // Home: in the runtime's move, on the runtime's stack: a signal handler
  // that reached a point meanwhile must not start another there.
  bool Migrating;
  // Home: the thread came back on its way to another node.
  struct {
    RegisterSet Registers;
    int Node;
    bool Asked; // by popcorn_migrate
  } Onward;
};

/// The calling thread's state (made on first use), or null if no memory
/// or it is ending.
ThreadState *currentThread();

/// The calling thread is in musl's pthread_exit, at home: the program's
/// code it runs there (cleanup handlers, key destructors) does not move
/// it, since its end is home's kernel thread's.
void noteThreadEnding();
bool threadEnding();

/// The calling thread's state if it was made, else null.
ThreadState *existingThread();

/// Finds region 0 (walking the stack in Source to its base) and maps
/// region 1 (in the arena if there is one: the same on every node).  False if the stack cannot be walked or no memory.
bool setUpStackRegions(ThreadState &T, const popcorn_metadata *Metadata,
                       RegisterSet &Source);

/// Where a signal handler returns: musl's __restore_rt, at one address on
/// every ISA (the layouts are aligned).  A rewrite refuses a stack that
/// holds such a frame with a reason of its own (RewriteRequest).
uint64_t signalReturnAddress();

/// The thread pointer this thread has on ISA Machine: the same struct
/// pthread, which x86-64's %fs points at and aarch64's tpidr_el0 just past.
uint64_t threadPointerFor(uint16_t Machine, const RegisterSet &Current);

/// Copies the thread's object-stack pointer from the word the code of
/// Source's ISA uses to the one ISA Machine's code uses (both in the
/// thread's struct pthread, libc-patches/common/0003-one-pthread-layout.patch).
void carryObjectStack(const RegisterSet &Source, uint16_t Machine);

} // namespace popcorn

#endif
