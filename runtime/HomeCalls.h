//===- HomeCalls.h - Calls that run in the home process ---------*- C++ -*-===//
//
// fork, exec and the spawning calls make or replace a process, and the
// program's processes are home's: its children are home's children (a
// node forwards the calls that wait for them), and exec replaces home.
// popcorn-ld links every call of such a libc function to a wrapper of its
// own (lld's --wrap; arch/*.S): at home the wrapper jumps to the function;
// away from home it asks to go home and takes a migration point at the
// program's call, and home makes the call before the thread resumes
// there, the call's result landing where the program reads it.  The
// function travels as its address, one on every ISA (popcorn-ld aligns
// them).  A vfork away from home is a fork at home: the child cannot
// share a stack with a parent that is not there.
//
// Shared with the assembly: where a process finds whether it is a remote
// node (NodeState::Remote).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_HOMECALLS_H
#define POPCORN_RUNTIME_HOMECALLS_H

#define POPCORN_REMOTE_FLAG 0x0f0000000000 // NodePrivateBase: NodeState::Remote

#ifndef __ASSEMBLER__
#include <stdint.h>

/// Away from home (from a wrapper): the thread's next migration point,
/// the program's call, takes it home to call Function with these
/// arguments there.
extern "C" void popcorn_request_home_call(long A0, long A1, long A2, long A3, long A4, long A5,
                                          long Function);

namespace popcorn {

/// Home: calls Function with Args for the thread that just came home;
/// returns its result register.
uint64_t runHomeCall(uint64_t Function, const int64_t *Args);

} // namespace popcorn
#endif

#endif
