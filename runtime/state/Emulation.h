//===- Emulation.h - Whether this process runs under qemu-user --*- C++ -*-===//
//
// A home on aarch64 runs under qemu-aarch64 on an x86-64 machine.  What it
// then names differently from a native process: the real-time signals it
// sends (qemu-user shifts them, signals/Steering.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_EMULATION_H
#define POPCORN_RUNTIME_EMULATION_H

namespace popcorn {

/// Whether this process runs under qemu-user.  Raw system calls only.
bool runsEmulated();

/// runsEmulated() for home, asked once, when first needed (steering a
/// node, popcorn-ctl ps): not at every start, which it would cost two
/// readlinks.  Threads that ask at once get the same answer.
bool homeRunsEmulated();

} // namespace popcorn

#endif
