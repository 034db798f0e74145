//===- RuntimeDescriptors.h - Home's own descriptors, out of the program's way -*- C++ -*-===//
//
// At home the runtime holds descriptors of its own among the program's:
// its links to the nodes, the control socket, the write tracker's
// userfaultfd, the signalfd it watches while the thread is away.  To the
// program they are not open: its close, close_range, dup2 and dup3 leave
// them be, or move them out of the way.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SYSCALLS_RUNTIMEDESCRIPTORS_H
#define POPCORN_RUNTIME_SYSCALLS_RUNTIMEDESCRIPTORS_H

#include <stdint.h>

namespace popcorn {

/// Whether Fd is one of the runtime's own at home (its control socket, a
/// link to a node): not the program's to close.
bool isRuntimeDescriptor(long Fd);

/// At home: the program's close_range, which closes the program's
/// descriptors from First to Last and not the runtime's among them.
long closeProgramRange(uint32_t First, uint32_t Last, long Flags);

/// At home, before the program's dup2 or dup3 onto Fd: if Fd is one of the
/// runtime's, the runtime's goes to another number, and the program gets
/// Fd as it would without the runtime.
void moveRuntimeDescriptor(long Fd);

} // namespace popcorn

#endif
