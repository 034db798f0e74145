//===- LegacyCalls.cpp - Calls of x86-64 that aarch64 never had -----------===//
#include "syscalls/LegacyCalls.h"
#include "support/Syscall.h"
#include <string.h>

namespace popcorn {
namespace {

// Where a replacement's argument comes from: the old call's argument of
// that index (0-5), or one of these.
enum Source : int8_t {
  AtFdcwd = -1,      // "relative to the working directory"
  Zero = -2,
  NoFollow = -3,     // AT_SYMLINK_NOFOLLOW
  RemoveDir = -4,    // AT_REMOVEDIR
  SigsetBytes = -5,  // the kernel's signal set: 8 bytes
  PollTimeout = -6,  // poll's milliseconds (argument 2) as a timespec
  SelectTimeout = -7, // select's timeval (argument 4) as a timespec
  Unused = -8,
};

struct Replacement {
  char Old[12], New[12];
  Source Args[6];
};

constexpr Source A0 = Source(0), A1 = Source(1), A2 = Source(2), A3 = Source(3);
constexpr Source U = Unused;

// Inline names: the table needs no relocations (SyscallTable.h says why).
constexpr Replacement Replacements[] = {
    {"open", "openat", {AtFdcwd, A0, A1, A2, U, U}},
    {"stat", "newfstatat", {AtFdcwd, A0, A1, Zero, U, U}},
    {"lstat", "newfstatat", {AtFdcwd, A0, A1, NoFollow, U, U}},
    {"dup2", "dup3", {A0, A1, Zero, U, U, U}},
    {"pipe", "pipe2", {A0, Zero, U, U, U, U}},
    {"unlink", "unlinkat", {AtFdcwd, A0, Zero, U, U, U}},
    {"mkdir", "mkdirat", {AtFdcwd, A0, A1, U, U, U}},
    {"rename", "renameat", {AtFdcwd, A0, AtFdcwd, A1, U, U}},
    {"rmdir", "unlinkat", {AtFdcwd, A0, RemoveDir, U, U, U}},
    {"link", "linkat", {AtFdcwd, A0, AtFdcwd, A1, Zero, U}},
    {"symlink", "symlinkat", {A0, AtFdcwd, A1, U, U, U}},
    {"chmod", "fchmodat", {AtFdcwd, A0, A1, U, U, U}},
    {"chown", "fchownat", {AtFdcwd, A0, A1, A2, Zero, U}},
    {"lchown", "fchownat", {AtFdcwd, A0, A1, A2, NoFollow, U}},
    {"readlink", "readlinkat", {AtFdcwd, A0, A1, A2, U, U}},
    {"access", "faccessat", {AtFdcwd, A0, A1, U, U, U}},
    {"mknod", "mknodat", {AtFdcwd, A0, A1, A2, U, U}},
    {"getpgrp", "getpgid", {Zero, U, U, U, U, U}},
    {"epoll_wait", "epoll_pwait", {A0, A1, A2, A3, Zero, SigsetBytes}},
    {"poll", "ppoll", {A0, A1, PollTimeout, Zero, SigsetBytes, U}},
    {"select", "pselect6", {A0, A1, A2, A3, SelectTimeout, Zero}},
};

int16_t homeNumberOf(const char *Name) {
  for (const SyscallRow &Row : SyscallRows)
    if (!strcmp(Row.Name, Name))
      return numberOn(Row, sys::Here);
  return -1;
}

// The timespec of a timeout, in Out.Timeout; its address, or 0 (none: wait
// for ever).
long timeout(Source S, const long *Args, ReplacementCall &Out) {
  if (S == PollTimeout) {
    if (int(Args[2]) < 0)
      return 0;
    Out.Timeout[0] = long(int(Args[2]) / 1000);
    Out.Timeout[1] = long(int(Args[2]) % 1000) * 1000000;
  } else {
    const long *Timeval = reinterpret_cast<const long *>(Args[4]);
    if (!Timeval)
      return 0;
    Out.Timeout[0] = Timeval[0];
    Out.Timeout[1] = Timeval[1] * 1000;
  }
  return long(Out.Timeout);
}

long argumentFrom(Source S, const long *Args, ReplacementCall &Out) {
  switch (S) {
  case AtFdcwd: return -100;
  case NoFollow: return 0x100;
  case RemoveDir: return 0x200;
  case SigsetBytes: return 8;
  case PollTimeout:
  case SelectTimeout: return timeout(S, Args, Out);
  case Zero:
  case Unused: return 0;
  }
  return Args[S];
}

} // namespace

bool replaceLegacyCall(const SyscallRow &Row, const long *Args, ReplacementCall &Out) {
  Out = {};
  if (!strcmp(Row.Name, "dup2") && Args[0] == Args[1]) {
    // dup3 refuses one descriptor twice; dup2 checks that it is open.
    Out.Number = sys::Fcntl;
    Out.Args[0] = Args[0];
    Out.Args[1] = 1; // F_GETFD
    Out.ResultIsFirstArgument = true;
    return true;
  }
  for (const Replacement &R : Replacements) {
    if (strcmp(R.Old, Row.Name))
      continue;
    Out.Number = homeNumberOf(R.New);
    for (unsigned I = 0; I < 6; I++)
      Out.Args[I] = argumentFrom(R.Args[I], Args, Out);
    return Out.Number >= 0;
  }
  return false;
}

} // namespace popcorn
