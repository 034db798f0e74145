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

#if defined(__x86_64__)
enum : long { Write = 1, Mmap = 9, Munmap = 11, Mprotect = 10, Gettid = 186 };
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
enum : long { Write = 64, Mmap = 222, Munmap = 215, Mprotect = 226, Gettid = 178 };
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

enum : long { ProtNone = 0, ProtReadWrite = 3, MapPrivateAnonymous = 0x22 };

// Anonymous read-write memory with a guard page below it, or null.
inline uint8_t *mapWithGuard(uint64_t Bytes) {
  const uint64_t Page = 4096;
  long Map = call6(Mmap, 0, long(Bytes + Page), ProtNone, MapPrivateAnonymous, -1, 0);
  if (Map < 0 && Map > -4096)
    return nullptr;
  if (call6(Mprotect, Map + long(Page), long(Bytes), ProtReadWrite) != 0)
    return nullptr;
  return reinterpret_cast<uint8_t *>(Map + Page);
}

inline void write(int Fd, const char *S, uint64_t N) { call6(Write, Fd, long(S), long(N)); }

} // namespace popcorn::sys

#endif
