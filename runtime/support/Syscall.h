//===- Syscall.h - Raw system calls for the migration path -----*- C++ -*-===//
//
// The migration path must not depend on libc's state (a thread between
// ISAs, a page not yet present): it talks to the kernel directly.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SYSCALL_H
#define POPCORN_RUNTIME_SYSCALL_H

#include "support/AddressMap.h"
#include <stdint.h>

namespace popcorn::sys {

// ELF e_machine of the ISA this code runs on.
#if defined(__x86_64__)
inline constexpr uint16_t Here = 62;
#else
inline constexpr uint16_t Here = 183;
#endif

// A call's number on the ISA this code is compiled for; each row of the
// table below has both ISAs' numbers (-1: the call does not exist there).
constexpr long number(long X86_64, long AArch64) {
#if defined(__x86_64__)
  return X86_64;
#else
  return AArch64;
#endif
}

enum : long {
  Read = number(0, 63), Write = number(1, 64), Close = number(3, 57), Mmap = number(9, 222),
  Mprotect = number(10, 226), Munmap = number(11, 215), RtSigaction = number(13, 134),
  Getpid = number(39, 172), Kill = number(62, 129), Sigaltstack = number(131, 132),
  ArchPrctl = number(158, -1), Gettid = number(186, 178), Tkill = number(200, 130),
  ExitGroup = number(231, 94), ProcessVmReadv = number(310, 270),
  ProcessVmWritev = number(311, 271), Mremap = number(25, 216), Brk = number(12, 214),
  Madvise = number(28, 233), Fcntl = number(72, 25), Writev = number(20, 66),
  Recvfrom = number(45, 207), SchedYield = number(24, 124), Prctl = number(157, 167),
  Getppid = number(110, 173), Ppoll = number(271, 73), Getrandom = number(318, 278),
  Wait4 = number(61, 260), Sendto = number(44, 206), Sendmsg = number(46, 211),
  Setsockopt = number(54, 208), Msync = number(26, 227), Mincore = number(27, 232),
  Socket = number(41, 198), Connect = number(42, 203), Bind = number(49, 200),
  Listen = number(50, 201), Getsockopt = number(55, 209), Clone = number(56, 220),
  Exit = number(60, 93), Geteuid = number(107, 175), Openat = number(257, 56),
  Mkdirat = number(258, 34), Unlinkat = number(263, 35), Accept4 = number(288, 242),
  Dup3 = number(292, 24), Prlimit64 = number(302, 261), Statx = number(332, 291),
  Nanosleep = number(35, 101), RtSigprocmask = number(14, 135), Semctl = number(66, 191),
  ClockGettime = number(228, 113),
  RtSigpending = number(127, 136), RtSigtimedwait = number(128, 137), Tgkill = number(234, 131),
  Shmat = number(30, 196), Shmdt = number(67, 197), PkeyMprotect = number(329, 288),
  Getdents64 = number(217, 61), Dup2 = number(33, -1), Futex = number(202, 98),
  CloseRange = number(436, 436), Userfaultfd = number(323, 282), Ioctl = number(16, 29),
  Signalfd4 = number(289, 74), Readlinkat = number(267, 78), Pread64 = number(17, 67),
  Pwrite64 = number(18, 68)
};

#if defined(__x86_64__)
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

// The kernel's error numbers the runtime returns or looks for (a raw
// call returns one negated), the same on both ISAs.  Not <errno.h>'s:
// its errno is libc's, which the runtime must not touch.
enum : long {
  Eintr = 4, Ebadf = 9, Eagain = 11, Enomem = 12, Efault = 14, Eexist = 17, Einval = 22,
  Enotty = 25, Enametoolong = 36, Enosys = 38, Emsgsize = 90, Eaddrinuse = 98,
  Econnaborted = 103, Econnrefused = 111
};

inline bool failed(long R) { return R < 0 && R > -4096; }

// Descriptor Fd (or an error, passed on) moved to 3 or above if it took
// one of stdin, stdout and stderr: a program started with them closed
// (`prog <&- >&-`) would write into a runtime link or socket as its
// standard output.  Close on exec unless Inherited.
inline long aboveStdio(long Fd, bool Inherited = false) {
  constexpr long Dup = 0, DupCloexec = 1030; // F_DUPFD(_CLOEXEC), the same on both ISAs
  if (Fd < 0 || Fd > 2)
    return Fd;
  long Moved = call6(Fcntl, Fd, Inherited ? Dup : DupCloexec, 3);
  call6(Close, Fd);
  return Moved;
}

// A descriptor the runtime keeps open in the program's process (its
// control socket, its links to nodes), moved out of the program's way:
// the program counts on the lowest free descriptors being its own (the
// first open after start-up is 3; one it closed stays closed, as gnulib's
// tests check).  It goes to the top of the first 1024, below the limit,
// close-on-exec; failing that, above the standard streams.  MayStay
// false: to another number than Fd even if Fd is one of those, the
// lowest free one if none of those is free (Fd if none at all).
inline long outOfTheWay(long Fd, bool MayStay = true) {
  constexpr long RlimitNofile = 7, GetFd = 1, Ebadf = -9, OCloexec = 02000000;
  struct {
    uint64_t Current, Max;
  } Limit;
  long Top = 1024;
  if (Fd < 0)
    return Fd;
  if (call6(Prlimit64, 0, RlimitNofile, 0, long(&Limit)) == 0 && Limit.Current < uint64_t(Top))
    Top = long(Limit.Current);
  for (long Want = Top - 1; Want > 2 && Want >= Top - 64; Want--) {
    if (Want == Fd && MayStay)
      return Fd;
    if (call6(Fcntl, Want, GetFd) != Ebadf)
      continue;
    if (call6(Dup3, Fd, Want, OCloexec) == Want) {
      call6(Close, Fd);
      return Want;
    }
  }
  if (MayStay)
    return aboveStdio(Fd);
  long Moved = call6(Fcntl, Fd, 1030 /* F_DUPFD_CLOEXEC */, 3);
  if (failed(Moved))
    return Fd;
  call6(Close, Fd);
  return Moved;
}

// Path opened to read, close on exec, or a negative errno.  (AT_FDCWD and
// O_CLOEXEC are the same on both ISAs.)
inline long openForReading(const char *Path) {
  constexpr long AtFdcwd = -100, OpenCloexec = 02000000;
  return call6(Openat, AtFdcwd, long(Path), OpenCloexec);
}

// Calls Visit(Name) for each entry of directory Path but "." and "..",
// with raw calls (opendir would allocate in the program's heap); false if
// the directory cannot be read.  For /proc's small directories.
template <class Visitor> bool forEachEntry(const char *Path, Visitor Visit) {
  long Dir = openForReading(Path);
  if (failed(Dir))
    return false;
  alignas(8) char Entries[2048];
  long Bytes;
  while ((Bytes = call6(Getdents64, Dir, long(Entries), sizeof Entries)) > 0)
    for (long At = 0; At < Bytes;) {
      uint16_t Length; // struct linux_dirent64: d_reclen at 16, d_name at 19
      __builtin_memcpy(&Length, Entries + At + 16, 2);
      const char *Name = Entries + At + 19;
      At += Length;
      if (!(Name[0] == '.' && (!Name[1] || (Name[1] == '.' && !Name[2]))))
        Visit(Name);
    }
  call6(Close, Dir);
  return Bytes == 0;
}

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

// A range of memory, as process_vm_readv and _writev take it.
struct IoVec {
  void *Base;
  uint64_t Size;
};

/// Moves Size bytes between the program's memory at There and this
/// process's at Here through /proc/self/mem (Fd), as process_vm_readv
/// (Write false) or _writev would.  The file itself ignores protections:
/// through its offsets a guard page, or the inaccessible reservation
/// around the arena's mappings, reads as zeros and takes writes.  So the
/// program's side is the call's buffer and only the runtime's side an
/// offset: qemu-user checks a buffer against the program's protections
/// before the kernel sees it, and the kernel copies it as the program
/// could.  Returns the bytes moved or a negative errno.
inline long procMemPiece(long Fd, bool Write, long Here, long There, uint64_t Size) {
  return call6(Write ? Pread64 : Pwrite64, Fd, There, long(Size), Here);
}

/// The copy of copyOwnMemory through /proc/self/mem (procMemPiece), for
/// qemu-user, which has no process_vm_readv or _writev (ENOSYS).  The
/// file's offsets are the host's addresses: the runtime's own only where
/// qemu-user placed the program at its own addresses (guest base 0),
/// which a value of this function's, read back through the file, shows.
inline long copyThroughProcMem(bool Write, const IoVec *Local, uint64_t LocalRanges,
                               const IoVec *Program, uint64_t Ranges) {
  constexpr long AtFdcwd = -100, ReadWriteCloexec = 02000002;
  long Fd = call6(Openat, AtFdcwd, long("/proc/self/mem"), ReadWriteCloexec);
  if (failed(Fd))
    return Fd;
  volatile long Probe = Fd, Seen = -1;
  if (call6(Pread64, Fd, long(&Seen), sizeof Seen, long(&Probe)) != sizeof Seen || Seen != Probe) {
    call6(Close, Fd);
    return -Enosys;
  }
  long Done = 0;
  uint64_t L = 0, LocalUsed = 0;
  // qemu-user refuses a buffer with any page the program may not access
  // whole, where the native calls copy up to that page: after a refusal
  // the copy goes on a page at a time, and ends at the next one.
  bool PageAtATime = false;
  for (uint64_t P = 0, ProgramUsed = 0; P < Ranges && L < LocalRanges;) {
    uint64_t Left = Program[P].Size - ProgramUsed, Room = Local[L].Size - LocalUsed;
    uint64_t Size = Left < Room ? Left : Room;
    long Here = long(static_cast<char *>(Local[L].Base) + LocalUsed);
    long There = long(static_cast<char *>(Program[P].Base) + ProgramUsed);
    uint64_t ToPageEnd = PageBytes - uint64_t(There) % PageBytes;
    if (PageAtATime && Size > ToPageEnd)
      Size = ToPageEnd;
    long Moved = Size ? procMemPiece(Fd, Write, Here, There, Size) : 0;
    if (Moved == -Eintr)
      continue;
    if (Moved == -Efault && !PageAtATime && Size > ToPageEnd) {
      PageAtATime = true;
      continue;
    }
    if (Moved < 0 || (Size && !Moved)) {
      if (!Done)
        Done = Moved ? Moved : -Efault;
      break;
    }
    Done += Moved;
    ProgramUsed += uint64_t(Moved), LocalUsed += uint64_t(Moved);
    if (ProgramUsed == Program[P].Size)
      P++, ProgramUsed = 0;
    if (LocalUsed == Local[L].Size)
      L++, LocalUsed = 0;
  }
  call6(Close, Fd);
  return Done;
}

/// Copies between the ranges Local[0..LocalRanges) and the program's ranges
/// Program[0..Ranges) of this process through the kernel (Call:
/// ProcessVmReadv or ProcessVmWritev), so that an address the program has
/// no such access to ends the copy there, not the process.  Returns the
/// bytes copied, or a negative errno.
inline long copyOwnMemory(long Call, const IoVec *Local, uint64_t LocalRanges,
                          const IoVec *Program, uint64_t Ranges) {
  long Copied = call6(Call, call6(Getpid, 0), long(Local), long(LocalRanges), long(Program),
                      long(Ranges), 0);
  if (Copied != -Enosys)
    return Copied;
  return copyThroughProcMem(Call == ProcessVmWritev, Local, LocalRanges, Program, Ranges);
}

/// The same, between one local range and the program's.
inline long copyOwnMemory(long Call, IoVec Local, const IoVec *Program, uint64_t Ranges) {
  return copyOwnMemory(Call, &Local, 1, Program, Ranges);
}

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
