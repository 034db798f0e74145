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
  }
  return sys::call6(Number, A, B, C, D, E, F);
}
