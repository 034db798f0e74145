//===- SyscallTable.h - System calls a remote node makes --------*- C++ -*-===//
//
// One row per system call libc makes, with its number on each ISA and
// where a remote node runs it: at home (files and process identity belong
// to the home node), here (time, randomness, signal masks), through the
// home node's address map (mapping calls), or as the program's exit.  The
// row index is the call's number in messages between nodes.
//
// A call's pointer arguments are described so that the data can travel:
// In (the buffer at argument Arg, of the size in argument Size, or Size
// bytes when Fixed), Out likewise, a string, or an iovec array.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SYSCALLTABLE_H
#define POPCORN_RUNTIME_SYSCALLTABLE_H

#include <stdint.h>

namespace popcorn {

enum class RunAt : uint8_t { Home, Here, Mapping, Exit, SignalSelf, Ioctl };

enum class Data : uint8_t {
  None,
  In,          // bytes: argument Size holds the count
  InFixed,     // Size bytes
  Out,         // bytes: argument Size holds the room, the result the count
  OutFixed,    // Size bytes
  InOutFixed,  // Size bytes, read and written by the call
  String,      // NUL-terminated
  InIovec,     // argument Size holds the count of iovecs
  OutIovec,
  OutStat,     // the kernel's struct stat of the calling ISA
  InEpollEvent,   // one struct epoll_event, in the calling ISA's kernel layout
  OutEpollEvents, // argument Size holds the room in events, the result the count
  InSembufs,      // struct sembuf (6 bytes, one layout): argument Size holds the count
  InMessage,      // a System V message: its long type, then argument Size's bytes
  OutMessage,     // likewise; the result is the count of bytes after the type
  InSemid,        // the kernel's struct semid64_ds of the calling ISA
  OutSemid,
  // System V control calls, whose data depends on the command (argument 2
  // of semctl, 1 of msgctl and shmctl): ipcControlData says what it is.
  SemControl,
  MsgControl,
  ShmControl,
  // fcntl's third argument: a pointer for the lock and owner commands
  // (FcntlCommands), a number for the others.
  FcntlControl,
  InOutPollFds, // struct pollfd (8 bytes, one layout): argument Size holds the count
  InOutFdSet,   // an fd_set of as many bits as select's first argument says
  // The signal mask a call waits with (ppoll's; pselect6's argument points
  // at {mask, size}).  Home waits with its own: the mask only says which
  // signals may interrupt the call (InterruptibleCall, SignalState.h).
  CallMask,
  CallMaskPair,
  // A buffer whose room is in the socklen_t argument Size points at; the
  // call sets that to the full length (accept's address, getsockopt's
  // value).
  OutLengthAt,
  // struct msghdr (one layout on both ISAs): its name, control data and
  // iovecs' bytes travel (MsghdrSizes, SystemCalls.cpp).
  InMsghdr,
  OutMsghdr,
};

struct DataArg {
  Data Kind;
  uint8_t Arg;
  uint16_t Size;
};

/// Pointer arguments of one call at most (pselect6's).
inline constexpr unsigned MaxRowData = 5;

/// Whether a call may wait for another process as long as it takes (a
/// read of a pipe, wait4), and whether a handler with SA_RESTART then
/// restarts it (signal(7): waits for events, and System V IPC, end with
/// EINTR anyway).  Home lets signals interrupt such a call that a node
/// forwarded (InterruptibleCall, SignalState.h).
enum class Waits : uint8_t { No, Restarted, Interrupted };

struct SyscallRow {
  char Name[20]; // inline: the table must not need relocations, which would put it in
                 // data that moves between nodes
  int16_t X86_64, AArch64; // -1: the ISA has no such call
  RunAt Where;
  DataArg Data[MaxRowData];
  int8_t OpenFlagsArg;     // open flags to translate between ISAs, or -1
  Waits Wait;
};

inline constexpr SyscallRow SyscallRows[] = {
    {"read", 0, 63, RunAt::Home, {{Data::Out, 1, 2}}, -1, Waits::Restarted},
    {"write", 1, 64, RunAt::Home, {{Data::In, 1, 2}}, -1, Waits::Restarted},
    {"readv", 19, 65, RunAt::Home, {{Data::OutIovec, 1, 2}}, -1, Waits::Restarted},
    {"writev", 20, 66, RunAt::Home, {{Data::InIovec, 1, 2}}, -1, Waits::Restarted},
    {"pread64", 17, 67, RunAt::Home, {{Data::Out, 1, 2}}, -1},
    {"pwrite64", 18, 68, RunAt::Home, {{Data::In, 1, 2}}, -1},
    {"open", 2, -1, RunAt::Home, {{Data::String, 0, 0}}, 1},
    {"openat", 257, 56, RunAt::Home, {{Data::String, 1, 0}}, 2, Waits::Restarted},
    {"close", 3, 57, RunAt::Home, {}, -1},
    {"lseek", 8, 62, RunAt::Home, {}, -1},
    {"fstat", 5, 80, RunAt::Home, {{Data::OutStat, 1, 0}}, -1},
    {"newfstatat", 262, 79, RunAt::Home, {{Data::String, 1, 0}, {Data::OutStat, 2, 0}}, -1},
    {"stat", 4, -1, RunAt::Home, {{Data::String, 0, 0}, {Data::OutStat, 1, 0}}, -1},
    {"lstat", 6, -1, RunAt::Home, {{Data::String, 0, 0}, {Data::OutStat, 1, 0}}, -1},
    {"ioctl", 16, 29, RunAt::Ioctl, {}, -1},
    {"fcntl", 72, 25, RunAt::Home, {{Data::FcntlControl, 2, 0}}, -1, Waits::Restarted},
    {"dup", 32, 23, RunAt::Home, {}, -1},
    {"dup2", 33, -1, RunAt::Home, {}, -1},
    {"dup3", 292, 24, RunAt::Home, {}, -1},
    {"close_range", 436, 436, RunAt::Home, {}, -1},
    {"pipe", 22, -1, RunAt::Home, {{Data::OutFixed, 0, 8}}, -1},
    {"pipe2", 293, 59, RunAt::Home, {{Data::OutFixed, 0, 8}}, -1},
    {"getdents64", 217, 61, RunAt::Home, {{Data::Out, 1, 2}}, -1},
    {"unlink", 87, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"unlinkat", 263, 35, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"mkdir", 83, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"mkdirat", 258, 34, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"rename", 82, -1, RunAt::Home, {{Data::String, 0, 0}, {Data::String, 1, 0}}, -1},
    {"renameat", 264, 38, RunAt::Home, {{Data::String, 1, 0}, {Data::String, 3, 0}}, -1},
    {"renameat2", 316, 276, RunAt::Home, {{Data::String, 1, 0}, {Data::String, 3, 0}}, -1},
    {"rmdir", 84, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"link", 86, -1, RunAt::Home, {{Data::String, 0, 0}, {Data::String, 1, 0}}, -1},
    {"linkat", 265, 37, RunAt::Home, {{Data::String, 1, 0}, {Data::String, 3, 0}}, -1},
    {"symlink", 88, -1, RunAt::Home, {{Data::String, 0, 0}, {Data::String, 1, 0}}, -1},
    {"symlinkat", 266, 36, RunAt::Home, {{Data::String, 0, 0}, {Data::String, 2, 0}}, -1},
    {"chmod", 90, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"fchmod", 91, 52, RunAt::Home, {}, -1},
    {"fchmodat", 268, 53, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"chown", 92, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"lchown", 94, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"fchown", 93, 55, RunAt::Home, {}, -1},
    {"fchownat", 260, 54, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"truncate", 76, 45, RunAt::Home, {{Data::String, 0, 0}}, -1},
    // futimens is utimensat with a null path; null times mean now.
    {"utimensat", 280, 88, RunAt::Home, {{Data::String, 1, 0}, {Data::InFixed, 2, 32}}, -1},
    {"statfs", 137, 43, RunAt::Home, {{Data::String, 0, 0}, {Data::OutFixed, 1, 120}}, -1},
    {"fstatfs", 138, 44, RunAt::Home, {{Data::OutFixed, 1, 120}}, -1},
    {"readlink", 89, -1, RunAt::Home, {{Data::String, 0, 0}, {Data::Out, 1, 2}}, -1},
    {"readlinkat", 267, 78, RunAt::Home, {{Data::String, 1, 0}, {Data::Out, 2, 3}}, -1},
    {"access", 21, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"faccessat", 269, 48, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"faccessat2", 439, 439, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"getcwd", 79, 17, RunAt::Home, {{Data::Out, 0, 1}}, -1},
    {"chdir", 80, 49, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"fchdir", 81, 50, RunAt::Home, {}, -1},
    {"ftruncate", 77, 46, RunAt::Home, {}, -1},
    {"fsync", 74, 82, RunAt::Home, {}, -1},
    {"fdatasync", 75, 83, RunAt::Home, {}, -1},
    {"fadvise64", 221, 223, RunAt::Home, {}, -1}, // posix_fadvise (xz)
    {"readahead", 187, 213, RunAt::Home, {}, -1},
    {"fallocate", 285, 47, RunAt::Home, {}, -1},
    {"sync_file_range", 277, 84, RunAt::Home, {}, -1},
    {"flock", 73, 32, RunAt::Home, {}, -1, Waits::Restarted},
    {"sendfile", 40, 71, RunAt::Home, {{Data::InOutFixed, 2, 8}}, -1, Waits::Restarted},
    {"copy_file_range", 326, 285, RunAt::Home,
     {{Data::InOutFixed, 1, 8}, {Data::InOutFixed, 3, 8}}, -1},
    {"splice", 275, 76, RunAt::Home, {{Data::InOutFixed, 1, 8}, {Data::InOutFixed, 3, 8}}, -1,
     Waits::Restarted},
    {"tee", 276, 77, RunAt::Home, {}, -1, Waits::Restarted},
    {"sync", 162, 81, RunAt::Home, {}, -1},
    {"syncfs", 306, 267, RunAt::Home, {}, -1},
    {"mknod", 133, -1, RunAt::Home, {{Data::String, 0, 0}}, -1},
    {"mknodat", 259, 33, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"memfd_create", 319, 279, RunAt::Home, {{Data::String, 0, 0}}, -1},
    // Descriptors whose events are home's: its counters, timers (struct
    // itimerspec: one layout) and files.
    {"eventfd2", 290, 19, RunAt::Home, {}, -1},
    {"timerfd_create", 283, 85, RunAt::Home, {}, -1},
    {"timerfd_settime", 286, 86, RunAt::Home, {{Data::InFixed, 2, 32}, {Data::OutFixed, 3, 32}},
     -1},
    {"timerfd_gettime", 287, 87, RunAt::Home, {{Data::OutFixed, 1, 32}}, -1},
    {"inotify_init1", 294, 26, RunAt::Home, {}, -1},
    {"inotify_add_watch", 254, 27, RunAt::Home, {{Data::String, 1, 0}}, -1},
    {"inotify_rm_watch", 255, 28, RunAt::Home, {}, -1},
    {"umask", 95, 166, RunAt::Home, {}, -1},
    {"getpid", 39, 172, RunAt::Home, {}, -1},
    {"getppid", 110, 173, RunAt::Home, {}, -1},
    {"getuid", 102, 174, RunAt::Home, {}, -1},
    {"geteuid", 107, 175, RunAt::Home, {}, -1},
    {"getgid", 104, 176, RunAt::Home, {}, -1},
    {"getegid", 108, 177, RunAt::Home, {}, -1},
    {"gettid", 186, 178, RunAt::Home, {}, -1},
    {"getresuid", 118, 148, RunAt::Home,
     {{Data::OutFixed, 0, 4}, {Data::OutFixed, 1, 4}, {Data::OutFixed, 2, 4}}, -1},
    {"getresgid", 120, 150, RunAt::Home,
     {{Data::OutFixed, 0, 4}, {Data::OutFixed, 1, 4}, {Data::OutFixed, 2, 4}}, -1},
    {"getpgid", 121, 155, RunAt::Home, {}, -1},
    {"getpgrp", 111, -1, RunAt::Home, {}, -1},
    {"setpgid", 109, 154, RunAt::Home, {}, -1},
    {"getsid", 124, 156, RunAt::Home, {}, -1},
    {"setsid", 112, 157, RunAt::Home, {}, -1},
    {"clock_gettime", 228, 113, RunAt::Here, {{Data::OutFixed, 1, 16}}, -1},
    {"gettimeofday", 96, 169, RunAt::Here, {{Data::OutFixed, 0, 16}}, -1},
    {"clock_getres", 229, 114, RunAt::Here, {{Data::OutFixed, 1, 16}}, -1},
    // The processor time of the process the thread runs in, as
    // clock_gettime's CLOCK_PROCESS_CPUTIME_ID (struct tms: one layout).
    {"times", 100, 153, RunAt::Here, {{Data::OutFixed, 0, 32}}, -1},
    // Sleeps wait as long as they say; a signal ends them (EINTR), with or
    // without SA_RESTART.
    {"nanosleep", 35, 101, RunAt::Here, {{Data::InFixed, 0, 16}, {Data::OutFixed, 1, 16}}, -1,
     Waits::Interrupted},
    {"clock_nanosleep", 230, 115, RunAt::Here, {{Data::InFixed, 2, 16}, {Data::OutFixed, 3, 16}},
     -1, Waits::Interrupted},
    {"getrandom", 318, 278, RunAt::Here, {{Data::Out, 0, 1}}, -1},
    {"rt_sigprocmask", 14, 135, RunAt::Here, {{Data::InFixed, 1, 8}, {Data::OutFixed, 2, 8}}, -1},
    // A signal the thread raises while it blocks it waits here (tkill runs
    // here); one sent to the process waits at home for its return.
    {"rt_sigpending", 127, 136, RunAt::Here, {{Data::OutFixed, 0, 8}}, -1},
    // The program's actions are home's; a node sets them too (SignalState.h).
    {"rt_sigaction", 13, 134, RunAt::Home, {{Data::InFixed, 1, 32}, {Data::OutFixed, 2, 32}}, -1},
    // The program's handlers run at home, on its alternate stack; a node's
    // own is the runtime's (its page faults).  stack_t: one layout.
    {"sigaltstack", 131, 132, RunAt::Home, {{Data::InFixed, 0, 24}, {Data::OutFixed, 1, 24}}, -1},
    // Timers are the process's: their signals arrive at home.
    {"setitimer", 38, 103, RunAt::Home, {{Data::InFixed, 1, 32}, {Data::OutFixed, 2, 32}}, -1},
    {"getitimer", 36, 102, RunAt::Home, {{Data::OutFixed, 1, 32}}, -1},
    {"alarm", 37, -1, RunAt::Home, {}, -1},
    {"sched_yield", 24, 124, RunAt::Here, {}, -1},
    {"uname", 63, 160, RunAt::Here, {{Data::OutFixed, 0, 390}}, -1},
    {"sched_getaffinity", 204, 123, RunAt::Here, {{Data::Out, 2, 1}}, -1},
    {"sched_setaffinity", 203, 122, RunAt::Here, {{Data::In, 2, 1}}, -1},
    // The node's processor, as the program would get it there natively.
    {"getcpu", 309, 168, RunAt::Here, {{Data::OutFixed, 0, 4}, {Data::OutFixed, 1, 4}}, -1},
    {"set_tid_address", 218, 96, RunAt::Here, {}, -1},
    {"futex", 202, 98, RunAt::Here, {{Data::OutFixed, 0, 4}}, -1},
    {"getrusage", 98, 165, RunAt::Here, {{Data::OutFixed, 1, 144}}, -1},
    {"sysinfo", 99, 179, RunAt::Here, {{Data::OutFixed, 0, 112}}, -1},
    {"prlimit64", 302, 261, RunAt::Here, {{Data::InFixed, 2, 16}, {Data::OutFixed, 3, 16}}, -1},
    {"getrlimit", 97, -1, RunAt::Here, {{Data::OutFixed, 1, 16}}, -1},
    {"membarrier", 324, 283, RunAt::Here, {}, -1},
    {"mmap", 9, 222, RunAt::Mapping, {}, -1},
    {"munmap", 11, 215, RunAt::Mapping, {}, -1},
    {"mprotect", 10, 226, RunAt::Mapping, {}, -1},
    {"mremap", 25, 216, RunAt::Mapping, {}, -1},
    {"madvise", 28, 233, RunAt::Mapping, {}, -1},
    {"brk", 12, 214, RunAt::Mapping, {}, -1},
    {"msync", 26, 227, RunAt::Mapping, {}, -1},
    {"epoll_create1", 291, 20, RunAt::Home, {}, -1},
    {"epoll_ctl", 233, 21, RunAt::Home, {{Data::InEpollEvent, 3, 0}}, -1},
    {"epoll_pwait", 281, 22, RunAt::Home,
     {{Data::OutEpollEvents, 1, 2}, {Data::InFixed, 4, 8}}, -1, Waits::Interrupted},
    {"epoll_wait", 232, -1, RunAt::Home, {{Data::OutEpollEvents, 1, 2}}, -1, Waits::Interrupted},
    {"poll", 7, -1, RunAt::Home, {{Data::InOutPollFds, 0, 1}}, -1, Waits::Interrupted},
    {"ppoll", 271, 73, RunAt::Home,
     {{Data::InOutPollFds, 0, 1}, {Data::InFixed, 2, 16}, {Data::CallMask, 3, 0}}, -1,
     Waits::Interrupted},
    {"select", 23, -1, RunAt::Home,
     {{Data::InOutFdSet, 1, 0}, {Data::InOutFdSet, 2, 0}, {Data::InOutFdSet, 3, 0},
      {Data::InOutFixed, 4, 16}}, -1, Waits::Interrupted},
    {"pselect6", 270, 72, RunAt::Home,
     {{Data::InOutFdSet, 1, 0}, {Data::InOutFdSet, 2, 0}, {Data::InOutFdSet, 3, 0},
      {Data::InOutFixed, 4, 16}, {Data::CallMaskPair, 5, 0}}, -1, Waits::Interrupted},
    // Sockets are home's, as files are.  Addresses, option values and
    // control messages (SCM_RIGHTS: home's descriptors) have one layout on
    // both ISAs, as do the SOCK_ flags.
    {"socket", 41, 198, RunAt::Home, {}, -1},
    {"socketpair", 53, 199, RunAt::Home, {{Data::OutFixed, 3, 8}}, -1},
    {"bind", 49, 200, RunAt::Home, {{Data::In, 1, 2}}, -1},
    {"connect", 42, 203, RunAt::Home, {{Data::In, 1, 2}}, -1, Waits::Restarted},
    {"listen", 50, 201, RunAt::Home, {}, -1},
    {"accept", 43, 202, RunAt::Home, {{Data::OutLengthAt, 1, 2}}, -1, Waits::Restarted},
    {"accept4", 288, 242, RunAt::Home, {{Data::OutLengthAt, 1, 2}}, -1, Waits::Restarted},
    {"getsockname", 51, 204, RunAt::Home, {{Data::OutLengthAt, 1, 2}}, -1},
    {"getpeername", 52, 205, RunAt::Home, {{Data::OutLengthAt, 1, 2}}, -1},
    {"setsockopt", 54, 208, RunAt::Home, {{Data::In, 3, 4}}, -1},
    {"getsockopt", 55, 209, RunAt::Home, {{Data::OutLengthAt, 3, 4}}, -1},
    {"sendto", 44, 206, RunAt::Home, {{Data::In, 1, 2}, {Data::In, 4, 5}}, -1, Waits::Restarted},
    {"recvfrom", 45, 207, RunAt::Home, {{Data::Out, 1, 2}, {Data::OutLengthAt, 4, 5}}, -1,
     Waits::Restarted},
    {"sendmsg", 46, 211, RunAt::Home, {{Data::InMsghdr, 1, 0}}, -1, Waits::Restarted},
    {"recvmsg", 47, 212, RunAt::Home, {{Data::OutMsghdr, 1, 0}}, -1, Waits::Restarted},
    {"shutdown", 48, 210, RunAt::Home, {}, -1},
    {"mincore", 27, 232, RunAt::Mapping, {}, -1},
    {"exit", 60, 93, RunAt::Exit, {}, -1},
    {"exit_group", 231, 94, RunAt::Exit, {}, -1},
    // System V IPC: the kernel's objects are home's.  shmat is not here: a
    // segment attached away from home would not be shared.
    {"semget", 64, 190, RunAt::Home, {}, -1},
    {"semop", 65, 193, RunAt::Home, {{Data::InSembufs, 1, 2}}, -1, Waits::Interrupted},
    {"semtimedop", 220, 192, RunAt::Home, {{Data::InSembufs, 1, 2}, {Data::InFixed, 3, 16}}, -1,
     Waits::Interrupted},
    {"semctl", 66, 191, RunAt::Home, {{Data::SemControl, 3, 4}}, -1},
    {"msgget", 68, 186, RunAt::Home, {}, -1},
    {"msgsnd", 69, 189, RunAt::Home, {{Data::InMessage, 1, 2}}, -1, Waits::Interrupted},
    {"msgrcv", 70, 188, RunAt::Home, {{Data::OutMessage, 1, 2}}, -1, Waits::Interrupted},
    {"msgctl", 71, 187, RunAt::Home, {{Data::MsgControl, 2, 0}}, -1},
    {"shmget", 29, 194, RunAt::Home, {}, -1},
    {"shmctl", 31, 195, RunAt::Home, {{Data::ShmControl, 2, 0}}, -1},
    {"kill", 62, 129, RunAt::SignalSelf, {}, -1},
    {"tkill", 200, 130, RunAt::SignalSelf, {}, -1},
    {"tgkill", 234, 131, RunAt::SignalSelf, {}, -1},
    // The program's children are home's (the compiler sends the thread
    // home to make them: HomeOnlyCalls.cpp).  struct rusage and siginfo_t
    // have one layout on both ISAs.
    {"wait4", 61, 260, RunAt::Home, {{Data::OutFixed, 1, 4}, {Data::OutFixed, 3, 144}}, -1,
     Waits::Restarted},
    {"waitid", 247, 95, RunAt::Home, {{Data::OutFixed, 2, 128}, {Data::OutFixed, 4, 144}}, -1,
     Waits::Restarted},
    // futex on a word shared with other processes (PageAccess.h) runs at
    // home, on the word itself: never found by number (the node's own row
    // above is), but by sharedFutexRow.  With a timeout to carry, and
    // without (a wake; an op whose fourth argument is a number).
    {"futex", 202, 98, RunAt::Home, {{Data::InFixed, 3, 16}}, -1, Waits::Restarted},
    {"futex", 202, 98, RunAt::Home, {}, -1, Waits::Restarted},
};

inline constexpr unsigned SyscallRowCount = sizeof SyscallRows / sizeof SyscallRows[0];

inline int16_t numberOn(const SyscallRow &Row, uint16_t Machine) {
  return Machine == 183 ? Row.AArch64 : Row.X86_64;
}

/// The row of system call Number on ISA Machine, or -1.
inline int rowOf(long Number, uint16_t Machine) {
  for (unsigned I = 0; I < SyscallRowCount; I++)
    if (numberOn(SyscallRows[I], Machine) == Number)
      return int(I);
  return -1;
}

/// The row of futex on a shared word, run at home (the last rows above),
/// with a timeout to carry or without.
constexpr int sharedFutexRow(bool Timeout) {
  for (unsigned I = 0; I < SyscallRowCount; I++)
    if (SyscallRows[I].Where == RunAt::Home && SyscallRows[I].X86_64 == 202 &&
        (SyscallRows[I].Data[0].Kind == Data::InFixed) == Timeout)
      return int(I);
  return -1;
}
static_assert(sharedFutexRow(true) >= 0 && sharedFutexRow(false) >= 0, "futex rows");

/// A command of ioctl or fcntl whose third argument points at data, and
/// what that data is.
struct CommandData {
  long Command;
  DataArg D;
};

/// The terminal requests libc makes.
inline constexpr CommandData IoctlCommands[] = {
    {0x5413, {Data::OutFixed, 2, 8}},  // TIOCGWINSZ
    {0x5401, {Data::OutFixed, 2, 36}}, // TCGETS
    {0x5402, {Data::InFixed, 2, 36}},  // TCSETS, TCSETSW, TCSETSF
    {0x5403, {Data::InFixed, 2, 36}},
    {0x5404, {Data::InFixed, 2, 36}},
    {0x541b, {Data::OutFixed, 2, 4}}, // FIONREAD
};

/// Both ISAs number the commands alike and lay out struct flock (32 bytes)
/// and struct f_owner_ex (8) alike.
inline constexpr CommandData FcntlCommands[] = {
    {5, {Data::InOutFixed, 2, 32}},  // F_GETLK: the lock to test, then the one in the way
    {36, {Data::InOutFixed, 2, 32}}, // F_OFD_GETLK
    {6, {Data::InFixed, 2, 32}},     // F_SETLK, F_SETLKW
    {7, {Data::InFixed, 2, 32}},
    {37, {Data::InFixed, 2, 32}}, // F_OFD_SETLK, F_OFD_SETLKW
    {38, {Data::InFixed, 2, 32}},
    {15, {Data::InFixed, 2, 8}},  // F_SETOWN_EX
    {16, {Data::OutFixed, 2, 8}}, // F_GETOWN_EX
};

/// The data of Command in Table, or false if it carries none a remote
/// node can send (ioctl: the node cannot make the call).
template <unsigned N>
inline bool commandData(const CommandData (&Table)[N], long Command, DataArg &Out) {
  for (const CommandData &C : Table)
    if (C.Command == Command) {
      Out = C.D;
      return true;
    }
  return false;
}

/// The data of System V control call D (a SemControl, MsgControl or
/// ShmControl row's) for its command; false if it has none (IPC_RMID,
/// SETVAL, ...).  semctl's GETALL and SETALL carry one short per semaphore:
/// their byte count travels in argument D.Size, which semctl does not use
/// (the node asks home for the count first).
inline bool ipcControlData(const DataArg &D, const int64_t *Args, DataArg &Out) {
  long Command = long(Args[D.Kind == Data::SemControl ? 2 : 1]);
  enum { Set = 1, Stat = 2, Info = 3 };
  switch (D.Kind) {
  case Data::SemControl:
    if (Command == Set || Command == Stat || Command == 18 || Command == 20) // SEM_STAT(_ANY)
      Out = {Command == Set ? Data::InSemid : Data::OutSemid, D.Arg, 0};
    else if (Command == Info || Command == 19) // SEM_INFO: struct seminfo
      Out = {Data::OutFixed, D.Arg, 40};
    else if ((Command == 13 || Command == 17) && Args[D.Size] > 0 && Args[D.Size] <= 0xffff)
      Out = {Command == 13 ? Data::OutFixed : Data::InFixed, D.Arg, uint16_t(Args[D.Size])};
    else
      return false;
    return true;
  case Data::MsgControl: // struct msqid64_ds: one layout on both ISAs
    if (Command == Set || Command == Stat || Command == 11 || Command == 13)
      Out = {Command == Set ? Data::InFixed : Data::OutFixed, D.Arg, 120};
    else if (Command == Info || Command == 12) // MSG_INFO: struct msginfo
      Out = {Data::OutFixed, D.Arg, 32};
    else
      return false;
    return true;
  case Data::ShmControl: // struct shmid64_ds: one layout on both ISAs
    if (Command == Set || Command == Stat || Command == 13 || Command == 15)
      Out = {Command == Set ? Data::InFixed : Data::OutFixed, D.Arg, 112};
    else if (Command == Info) // struct shminfo64
      Out = {Data::OutFixed, D.Arg, 72};
    else if (Command == 14) // SHM_INFO: struct shm_info
      Out = {Data::OutFixed, D.Arg, 48};
    else
      return false;
    return true;
  default:
    return false;
  }
}

} // namespace popcorn

#endif
