//===- Syscall.h - Raw system calls for the migration path -----*- C++ -*-===//
//
// The migration path must not depend on libc's state (a thread between
// ISAs, a page not yet present): it talks to the kernel directly.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SYSCALL_H
#define POPCORN_RUNTIME_SYSCALL_H

#include <stdint.h>

namespace popcorn::sys {

// ELF e_machine of the ISA this code runs on.
#if defined(__x86_64__)
inline constexpr uint16_t Here = 62;
#else
inline constexpr uint16_t Here = 183;
#endif

#if defined(__x86_64__)
enum : long {
  Read = 0, Write = 1, Close = 3, Mmap = 9, Mprotect = 10, Munmap = 11, RtSigaction = 13,
  Getpid = 39, Kill = 62, Sigaltstack = 131, ArchPrctl = 158, Gettid = 186, Tkill = 200,
  ExitGroup = 231, ProcessVmReadv = 310, ProcessVmWritev = 311, Mremap = 25, Brk = 12,
  Madvise = 28, Fcntl = 72, Writev = 20, Recvfrom = 45, SchedYield = 24, Prctl = 157, Getppid = 110,
  Ppoll = 271, Getrandom = 318, Wait4 = 61, Sendto = 44, Sendmsg = 46, Setsockopt = 54,
  Msync = 26, Mincore = 27,
  // the control socket's (ControlSocket.cpp)
  Socket = 41, Connect = 42, Bind = 49, Listen = 50, Getsockopt = 55, Clone = 56, Exit = 60,
  Geteuid = 107, Openat = 257, Mkdirat = 258, Unlinkat = 263, Accept4 = 288, Dup3 = 292,
  Prlimit64 = 302, Statx = 332, Nanosleep = 35, RtSigprocmask = 14
};
inline long call6(long N, long A, long B = 0, long C = 0, long D = 0, long E = 0, long F = 0) {
  register long R10 __asm__("r10") = D;
  register long R8 __asm__("r8") = E;
  register long R9 __asm__("r9") = F;
  long Ret;
  __asm__ volatile("syscall"
                   : "=a"(Ret)
                   : "a"(N), "D"(A), "S"(B), "d"(C), "r"(R10), "r"(R8), "r"(R9)
                   : "rcx", "r11", "memory");
  return Ret;
}
#elif defined(__aarch64__)
enum : long {
  Read = 63, Write = 64, Close = 57, Mmap = 222, Mprotect = 226, Munmap = 215, RtSigaction = 134,
  Getpid = 172, Kill = 129, Sigaltstack = 132, Gettid = 178, Tkill = 130, ExitGroup = 94,
  ProcessVmReadv = 270, ProcessVmWritev = 271, Mremap = 216, Brk = 214,
  Madvise = 233, Fcntl = 25, Writev = 66, Recvfrom = 207, SchedYield = 124, Prctl = 167, Getppid = 173,
  Ppoll = 73, Getrandom = 278, Wait4 = 260, Sendto = 206, Sendmsg = 211, Setsockopt = 208,
  Msync = 227, Mincore = 232,
  // the control socket's (ControlSocket.cpp)
  Socket = 198, Connect = 203, Bind = 200, Listen = 201, Getsockopt = 209, Clone = 220, Exit = 93,
  Geteuid = 175, Openat = 56, Mkdirat = 34, Unlinkat = 35, Accept4 = 242, Dup3 = 24,
  Prlimit64 = 261, Statx = 291, Nanosleep = 101, RtSigprocmask = 135
};
inline long call6(long N, long A, long B = 0, long C = 0, long D = 0, long E = 0, long F = 0) {
  register long X8 __asm__("x8") = N;
  register long X0 __asm__("x0") = A;
  register long X1 __asm__("x1") = B;
  register long X2 __asm__("x2") = C;
  register long X3 __asm__("x3") = D;
  register long X4 __asm__("x4") = E;
  register long X5 __asm__("x5") = F;
  __asm__ volatile("svc 0"
                   : "+r"(X0)
                   : "r"(X8), "r"(X1), "r"(X2), "r"(X3), "r"(X4), "r"(X5)
                   : "memory");
  return X0;
}
#endif

enum : long {
  ProtNone = 0, ProtRead = 1, ProtReadWrite = 3, MapPrivateAnonymous = 0x22, MapFixed = 0x10,
  MapNoReserve = 0x4000, MapFixedNoReplace = 0x100000
};

inline bool failed(long R) { return R < 0 && R > -4096; }

// Read-write memory of this process alone (never in the arena), committed
// on first touch; null if none.
inline uint8_t *mapPrivate(uint64_t Bytes) {
  long R = call6(Mmap, 0, long((Bytes + 4095) & ~uint64_t(4095)), ProtReadWrite,
                 MapPrivateAnonymous | MapNoReserve, -1, 0);
  return failed(R) ? nullptr : reinterpret_cast<uint8_t *>(R);
}

// Replaces [Address, +Bytes) by fresh inaccessible memory: its pages are
// gone, the range stays reserved.
inline bool reserve(uint64_t Address, uint64_t Bytes, long Extra = MapFixed) {
  long R = call6(Mmap, long(Address), long(Bytes), ProtNone,
                 MapPrivateAnonymous | MapNoReserve | Extra, -1, 0);
  return !failed(R) && uint64_t(R) == Address;
}

[[noreturn]] inline void exitGroup(int Status) {
  for (;;)
    call6(ExitGroup, Status);
}

// Anonymous read-write memory with a guard page below it, or null.
inline uint8_t *mapWithGuard(uint64_t Bytes) {
  const uint64_t Page = 4096;
  long Map = call6(Mmap, 0, long(Bytes + Page), ProtNone, MapPrivateAnonymous, -1, 0);
  if (failed(Map))
    return nullptr;
  if (call6(Mprotect, Map + long(Page), long(Bytes), ProtReadWrite) != 0)
    return nullptr;
  return reinterpret_cast<uint8_t *>(Map + Page);
}

inline void write(int Fd, const char *S, uint64_t N) { call6(Write, Fd, long(S), long(N)); }

/// Calls Part(Address, Left) until Bytes are done: it returns how many it
/// did, -EINTR to be called again, or another value <= 0 to give up
/// (false).
template <class PartFn> bool everyByte(void *Data, uint64_t Bytes, PartFn Part) {
  auto P = reinterpret_cast<long>(Data);
  while (Bytes) {
    long N = Part(P, Bytes);
    if (N == -4) // EINTR
      continue;
    if (N <= 0)
      return false;
    P += N;
    Bytes -= uint64_t(N);
  }
  return true;
}

} // namespace popcorn::sys

#endif
