//===- LongJump.h - setjmp and longjmp across moves -------------*- C++ -*-===//
#ifndef POPCORN_RUNTIME_LONGJUMP_H
#define POPCORN_RUNTIME_LONGJUMP_H

#include "RegisterSet.h"

namespace popcorn {

/// Notes where the thread's frames are as it arrives in this process with
/// Registers, before it runs: a longjmp from a signal handler to a setjmp
/// made on another ISA before the move finds its frame there.
void noteArrivedFrames(const RegisterSet &Registers);

} // namespace popcorn

#endif
