//===- LegacyCalls.h - Calls of x86-64 that aarch64 never had ---*- C++ -*-===//
//
// musl on x86-64 makes calls that aarch64's kernel does not have: open,
// stat, dup2, pipe, poll, select... (the *at and p* calls replaced them
// there).  A node forwards its calls to home, so when home is aarch64 it
// makes, for such a call, the one that replaced it.  alarm has none (a
// node's alarm answers ENOSYS at an aarch64 home), and select's
// replacement leaves its timeval as it was (Linux's select writes the
// time left).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_LEGACYCALLS_H
#define POPCORN_RUNTIME_LEGACYCALLS_H

#include "link/SyscallTable.h"

namespace popcorn {

/// The call home makes instead of one its kernel lacks.
struct ReplacementCall {
  int16_t Number; // on home's ISA
  long Args[6];
  // dup2(A, A) is fcntl(A, F_GETFD), whose result, if A is open, is A.
  bool ResultIsFirstArgument;
  long Timeout[2]; // poll's milliseconds or select's timeval, as a timespec
};

/// Home: the call that replaced Row's, on Args (the call's arguments, with
/// its data in home's memory), in Out; false if Row's call has none.
bool replaceLegacyCall(const SyscallRow &Row, const long *Args, ReplacementCall &Out);

} // namespace popcorn

#endif
