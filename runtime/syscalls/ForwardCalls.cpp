//===- ForwardCalls.cpp - A remote node's system calls, where their rows say ===//
//
// Away from home, each call libc makes runs where its row of
// link/SyscallTable.h says: here (time, signal masks), at home with its
// data carried both ways (files, process identity), through home's
// address map (mapping calls), or as the program's exit.
//
//===----------------------------------------------------------------------===//
#include "memory/NodeMappings.h"
#include "memory/RemotePageSets.h"
#include "memory/RemotePages.h"
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/NodeFailure.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include "syscalls/CallData.h"
#include "syscalls/SystemCalls.h"
#include "trace/Trace.h"

extern "C" int __popcorn_migration_pending;

namespace popcorn {

namespace {
constexpr uint16_t Here = sys::Here;

[[noreturn]] void exitProgram(long Status) {
  NodeState &N = node();
  ExitMessage M{int32_t(Status)};
  sendTrace(N.HomeLink);
  N.HomeLink.send(MessageType::Exit, &M, sizeof M);
  sys::exitGroup(int(Status));
}

// Makes the pages of a local call's buffers present first: the kernel
// answers EFAULT, not a fault, for a page that is not.
void touchData(const SyscallRow &Row, const long *A) {
  int64_t Args[SyscallArguments];
  for (unsigned I = 0; I < SyscallArguments; I++)
    Args[I] = A[I];
  DataArg Ds[MaxRowData];
  unsigned Count = dataOf(Row, Args, Ds);
  for (unsigned I = 0; I < Count; I++) {
    const DataArg &D = Ds[I];
    if (!A[D.Arg])
      continue;
    uint64_t Bytes = D.Kind == Data::In || D.Kind == Data::Out ? uint64_t(A[D.Size]) : D.Size;
    touchPages(uint64_t(A[D.Arg]), Bytes, isOut(D.Kind));
  }
}

long forward(int RowIndex, const long *A);

// Whether home's pages are in memory is home's to say, and worth no page
// of data per call: home checks that the range is mapped (msync fails
// where it is not, as mincore does), and the pages count as resident.
long remoteMincore(const long *A) {
  long Check[SyscallArguments] = {A[0], A[1], 1 /* MS_ASYNC */};
  long R = forward(rowOf(sys::Msync, Here), Check);
  if (sys::failed(R))
    return R;
  uint64_t Pages = (uint64_t(A[1]) + PageBytes - 1) / PageBytes;
  touchPages(uint64_t(A[2]), Pages, true);
  for (uint64_t I = 0; I < Pages; I++)
    reinterpret_cast<uint8_t *>(A[2])[I] = 1;
  return 0;
}

// semctl's GETALL and SETALL carry a short per semaphore; how many is
// home's to say first (IPC_STAT), and travels in an argument semctl does
// not use (ipcControlData).
long remoteSemctl(int RowIndex, const long *A) {
  long Command = A[2] & 0xff;
  if (Command != 13 && Command != 17) // GETALL, SETALL
    return forward(RowIndex, A);
  uint8_t Semid[MaxLayoutBytes];
  long Stat[SyscallArguments] = {A[0], 0, 2 /* IPC_STAT */, long(Semid)};
  long R = forward(RowIndex, Stat);
  if (sys::failed(R))
    return R;
  const Layout::Field &Count = SemidLayout.Fields[3]; // sem_nsems
  uint64_t Semaphores = 0;
  copy(&Semaphores, Semid + (Here == EmAArch64 ? Count.AArch64 : Count.X86), Count.Bytes);
  long Args[SyscallArguments] = {A[0], A[1], A[2], A[3], long(2 * Semaphores)};
  return forward(RowIndex, Args);
}

// Home's kernel holds the program's actions (SignalState.h), and this
// node's the same, for the signals raised here.  This node's SIGSEGV
// brings pages in: the program's action is kept for it.
long remoteSigaction(int RowIndex, const long *A) {
  settleResetActions(); // before home says what an action is
  long R = forward(RowIndex, A);
  if (sys::failed(R) || !A[1] || A[0] < 1 || A[0] > SignalCount)
    return R;
  uint64_t Bit = signalBit(int(A[0]));
  NodeState &N = node();
  if (resetsOnDelivery(*reinterpret_cast<const KernelSigaction *>(A[1])))
    N.ResettingSignals |= Bit;
  else
    N.ResettingSignals &= ~Bit;
  if (A[0] == SignalFault)
    copy(&ProgramFaultAction, reinterpret_cast<const void *>(A[1]), sizeof ProgramFaultAction);
  else if (!(RuntimeSignals & signalBit(int(A[0]))))
    sys::call6(sys::RtSigaction, A[0], A[1], 0, 8);
  return R;
}

// Home's kernel holds the program's alternate signal stack; this node
// keeps a copy for the program's SIGSEGV handler.
long remoteSigaltstack(int RowIndex, const long *A) {
  long R = forward(RowIndex, A);
  if (!sys::failed(R) && A[0])
    copy(&ProgramSignalStack, reinterpret_cast<const void *>(A[0]), sizeof ProgramSignalStack);
  return R;
}

long forward(int RowIndex, const long *A) {
  NodeState &N = node();
  const SyscallRow &Row = SyscallRows[RowIndex];
  SyscallMessage M{uint32_t(RowIndex), 0, {}, Row.Wait == Waits::No ? 0 : threadMask()};
  for (unsigned I = 0; I < SyscallArguments; I++)
    M.Args[I] = A[I];
  DataArg Ds[MaxRowData];
  unsigned Count = dataOf(Row, M.Args, Ds);
  if (Row.Where == RunAt::Ioctl && !Count)
    return -sys::Enotty;

  uint8_t *Buf = N.SyscallBuffer;
  uint64_t Used = 0;
  for (unsigned I = 0; I < Count; I++) {
    const DataArg &D = Ds[I];
    void *P = reinterpret_cast<void *>(A[D.Arg]);
    if (D.Kind == Data::CallMaskPair && P)
      P = reinterpret_cast<void *>(*static_cast<const uint64_t *>(P));
    if (!P) {
      M.Args[D.Arg] = Null;
      if (D.Kind == Data::OutLengthAt)
        M.Args[D.Size] = 0;
      continue;
    }
    uint64_t Room = SyscallDataBytes - Used, Bytes = 0;
    switch (D.Kind) {
    case Data::OutLengthAt:
      if (!A[D.Size])
        return -sys::Efault;
      M.Args[D.Size] = int64_t(least(*reinterpret_cast<const uint32_t *>(A[D.Size]), MaxLengthAt));
      continue;
    case Data::InMsghdr:
      Bytes = packMsghdr(*static_cast<const KernelMsghdr *>(P), Buf + Used, Room);
      if (!Bytes)
        return -sys::Emsgsize;
      M.Args[D.Arg] = int64_t(Used);
      Used += Bytes;
      continue;
    case Data::OutMsghdr: {
      MsghdrSizes Rooms = roomsOf(*static_cast<const KernelMsghdr *>(P));
      if (sizeof Rooms > Room)
        return -sys::Einval;
      copy(Buf + Used, &Rooms, sizeof Rooms);
      M.Args[D.Arg] = int64_t(Used);
      Used += sizeof Rooms;
      continue;
    }
    case Data::In:
      Bytes = least(uint64_t(A[D.Size]), Room);
      M.Args[D.Size] = int64_t(Bytes);
      break;
    case Data::OutMessage:
      M.Args[D.Size] = int64_t(least(uint64_t(A[D.Size]), SyscallDataBytes - 8));
      continue;
    case Data::OutEpollEvents:
      M.Args[D.Size] = int64_t(least(uint64_t(A[D.Size]), MaxEpollEvents));
      continue;
    case Data::String:
      Bytes = __builtin_strlen(static_cast<const char *>(P)) + 1;
      if (Bytes > Room)
        return -sys::Enametoolong;
      break;
    case Data::InIovec:
      Bytes = gather(static_cast<const IoVec *>(P), A[D.Size], Buf + Used, Room);
      M.Args[D.Arg] = int64_t(Used);
      M.Args[D.Size] = int64_t(Bytes);
      Used += Bytes;
      continue;
    case Data::Out:
      M.Args[D.Size] = int64_t(least(uint64_t(A[D.Size]), SyscallDataBytes));
      continue;
    case Data::OutIovec:
      M.Args[D.Size] = int64_t(
          least(iovecBytes(static_cast<const IoVec *>(P), A[D.Size]), SyscallDataBytes));
      continue;
    default: // sized as home sizes it
      if (!sizedInput(D, A, Here, Room, Bytes))
        continue;
    }
    if (Bytes > Room)
      return -sys::Einval;
    copy(Buf + Used, P, Bytes);
    M.Args[D.Arg] = int64_t(Used);
    Used += Bytes;
  }
  M.InBytes = uint32_t(Used);

  // While the call runs, home's other threads may run (remoteSyscall):
  // its data is taken before they do, and put in place after.
  uint64_t ReleaseFrom = N.ReleaseFrom;
  N.ReleaseFrom = 0;
  if (ReleaseFrom)
    releaseHomeThreads(ReleaseFrom, false);
  MessageHeader H;
  SyscallResultMessage R;
  QuietLink Quiet; // the answer's arrival needs no signal
  TraceSpan Call(TraceKind::Syscall);
  if (!N.HomeLink.send2(MessageType::Syscall, &M, sizeof M, Buf, uint32_t(Used)) ||
      !N.HomeLink.receiveHeader(H))
    lostHome();
  if (H.Type == MessageType::ThreadEnded && !H.Bytes && N.OthersHeldAtHome && N.ForgetThread)
    N.ForgetThread();
  if (H.Type != MessageType::SyscallResult ||
      H.Bytes < sizeof R || H.Bytes - sizeof R > 2 * SyscallDataBytes ||
      !N.HomeLink.receivePayload(&R, sizeof R) ||
      !N.HomeLink.receivePayload(Buf, H.Bytes - sizeof R))
    lostHome();
  if (ReleaseFrom)
    holdHomeThreads(ReleaseFrom);
  N.SyscallsForwarded++;
  Call.finish(uint64_t(RowIndex));
  if (R.Signals)
    takeSignalsWithResult(R.Signals);

  // Each output, in order: its length, then its bytes.
  uint64_t At = 0, End = H.Bytes - sizeof R;
  for (unsigned I = 0; I < Count; I++) {
    const DataArg &D = Ds[I];
    if (!isOut(D.Kind) || !A[D.Arg])
      continue;
    uint64_t Bytes;
    if (At + 8 > End)
      break;
    copy(&Bytes, Buf + At, 8);
    At += 8;
    if (Bytes > End - At)
      break;
    if (D.Kind == Data::OutIovec) {
      scatter(reinterpret_cast<const IoVec *>(A[D.Arg]), A[D.Size], Buf + At, Bytes);
    } else if (D.Kind == Data::OutMsghdr) {
      unpackMsghdr(*reinterpret_cast<KernelMsghdr *>(A[D.Arg]), Buf + At, Bytes);
    } else if (D.Kind == Data::OutLengthAt) {
      if (Bytes >= 4) {
        copy(reinterpret_cast<void *>(A[D.Size]), Buf + At, 4);
        copy(reinterpret_cast<void *>(A[D.Arg]), Buf + At + 4, Bytes - 4);
      }
    } else {
      copy(reinterpret_cast<void *>(A[D.Arg]), Buf + At, Bytes);
    }
    At += Bytes;
  }
  return R.Result;
}

// Writable private anonymous memory is zero where home maps it (the same
// flag values on both ISAs).
bool isPrivateAnonymous(long Prot, long Flags) {
  constexpr long ProtWrite = 2, MapType = 0xf, MapPrivate = 2, MapAnonymous = 0x20;
  return (Prot & ProtWrite) && (Flags & MapType) == MapPrivate && (Flags & MapAnonymous);
}

// futex on a word in memory shared with other processes: at home, where
// they wait and wake.
long sharedFutex(const long *A) {
  constexpr long Wait = 0, LockPi = 6, WaitBitset = 9, WaitRequeuePi = 11, LockPi2 = 13;
  long Op = A[1] & 0x7f; // without FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME
  bool Timeout = A[3] && (Op == Wait || Op == LockPi || Op == WaitBitset ||
                          Op == WaitRequeuePi || Op == LockPi2);
  return forward(sharedFutexRow(Timeout), A);
}

long runAway(long Number, const long *A) {
  NodeState &N = node();
  int RowIndex = rowOf(Number, Here);
  if (RowIndex < 0) {
    if (Number >= 0 && Number < 512 && !N.WarnedSyscall[Number]) {
      N.WarnedSyscall[Number] = true;
      Line() << "popcorn: node " << uint64_t(N.Self) << ": system call " << uint64_t(Number)
             << " cannot run away from home; it fails with ENOSYS";
    }
    return -sys::Enosys;
  }
  const SyscallRow &Row = SyscallRows[RowIndex];
  switch (Row.Where) {
  case RunAt::Here:
    if (Number == sys::Futex && inMapSharedPage(uint64_t(A[0])))
      return sharedFutex(A);
    if (Number == sys::RtSigprocmask && A[1]) {
      // Page faults and steering must reach this node's handlers.
      uint64_t Set = *reinterpret_cast<const uint64_t *>(A[1]) & ~RuntimeSignals;
      touchData(Row, A);
      long R;
      {
        SignalsOpen Unblocked; // a signal pending here arrives as at home
        R = sys::call6(Number, A[0], long(&Set), A[2], 8);
      }
      uint64_t Mask;
      if (threadMaskChanged(Mask) && !N.HomeLink.send(MessageType::ThreadMask, &Mask, sizeof Mask))
        lostHome();
      return R;
    }
    touchData(Row, A);
    {
      SignalsOpen Interruptible;
      return sys::call6(Number, A[0], A[1], A[2], A[3], A[4], A[5]);
    }
  case RunAt::SignalSelf:
    if (Number == sys::Kill && A[0] != long(N.HomePid))
      return forward(RowIndex, A);
    if (Number == sys::Kill)
      return sys::call6(sys::Kill, sys::call6(sys::Getpid, 0), A[1]);
    return sys::call6(sys::Tkill, sys::call6(sys::Gettid, 0), Number == sys::Tkill ? A[1] : A[2]);
  case RunAt::Exit:
    exitProgram(A[0]);
  case RunAt::Mapping: {
    // Advice on how memory will be used counts where the memory is, at
    // home, and may be ignored; musl's free gives MADV_FREE all the time.
    constexpr long Normal = 0, Random = 1, Sequential = 2, WillNeed = 3, Free = 8, Cold = 20,
                   PageOut = 21, DontNeed = 4, Remove = 9, DontNeedLocked = 24;
    long Advice = A[2];
    if (Number == sys::Madvise && (Advice == Normal || Advice == Random || Advice == Sequential ||
                                   Advice == WillNeed || Advice == Free || Advice == Cold ||
                                   Advice == PageOut))
      return 0;
    if (Number == sys::Brk)
      return -sys::Enomem;
    uint64_t Address = uint64_t(A[0]), Bytes = pageUp(uint64_t(A[1]));
    bool Fresh = Number == sys::Mmap && isPrivateAnonymous(A[2], A[3]);
    if (Fresh && !Address && Bytes)
      if (uint64_t Kept = reuseKeptRange(Bytes, A[2], A[3]))
        return long(Kept);
    if (Number == sys::Munmap && keepUnmappedRange(Address, Bytes))
      return 0;
    // Any other call sees home's mappings as the program does.
    settleNodeMappings(Address, Number == sys::Mmap && !(A[3] & sys::MapFixed) ? 0 : Bytes);
    if (Number == sys::Mincore)
      return remoteMincore(A);
    // munmap of an arena range cannot fail at home (AddressSpace.cpp):
    // a round trip saved, as for the ranges kept above.
    if (Number == sys::Munmap && unmapAtHome(Address, Bytes))
      return 0;
    // Home changes or moves pages this node may have written: they go
    // home first, and are asked for again where they are afterwards.
    if (Number == sys::Mprotect || Number == sys::Mremap)
      returnPages(Address, Bytes);
    long R = forward(RowIndex, A);
    if (sys::failed(R))
      return R;
    // Home placed or removed it: what this node held there is stale.
    if (Fresh) {
      takeFreshRange(uint64_t(R), Bytes);
      noteNodeMapping(uint64_t(R), Bytes, A[2], A[3]);
    } else if (Number == sys::Mmap || Number == sys::Munmap ||
               (Number == sys::Madvise && (Advice == DontNeed || Advice == Remove ||
                                           Advice == DontNeedLocked))) {
      // Those madvise discard the pages (what the thread reads next is
      // zero, or the file's); the others keep them as they are.
      dropPages(uint64_t(Number == sys::Mmap ? R : A[0]), pageUp(uint64_t(A[1])));
    } else if (Number == sys::Mremap) {
      dropPages(Address, Bytes);
      dropPages(uint64_t(R), pageUp(uint64_t(A[2])));
    }
    return R;
  }
  case RunAt::Home:
    if (Number == sys::RtSigaction)
      return remoteSigaction(RowIndex, A);
    if (Number == sys::Sigaltstack)
      return remoteSigaltstack(RowIndex, A);
    return Number == sys::Semctl ? remoteSemctl(RowIndex, A) : forward(RowIndex, A);
  case RunAt::Ioctl:
    return forward(RowIndex, A);
  }
  return -sys::Enosys;
}
} // namespace

void settleResetActions() {
  NodeState &N = node();
  if (!N.ResettingSignals)
    return;
  SignalsHeld Held; // an exchange with home
  for (int S = 1; S <= SignalCount; S++) {
    if (!(N.ResettingSignals & signalBit(S)))
      continue;
    KernelSigaction Now{};
    if (S == SignalFault)
      Now = ProgramFaultAction;
    else
      sys::call6(sys::RtSigaction, S, 0, long(&Now), 8);
    if (resetsOnDelivery(Now))
      continue;
    long Args[SyscallArguments] = {S, long(&Now), 0, 8};
    forward(rowOf(sys::RtSigaction, Here), Args);
    N.ResettingSignals &= ~signalBit(S);
  }
}

namespace {
// StackLow if it lies on the stack the thread runs on here, else that
// stack's top (nothing of it travels): a call made on another stack.
uint64_t onThreadStack(uint64_t StackLow) {
  const StackRegion &Away = node().Away;
  return StackLow < Away.Low || StackLow > Away.High ? Away.High : StackLow;
}
} // namespace

void releaseHomeThreads(uint64_t StackLow, bool Yielding) {
  NodeState &N = node();
  endNodeMappings();
  sendWrittenPages();
  keepNoPages();
  StackLow = onThreadStack(StackLow);
  ReleaseMessage M{StackLow, Yielding};
  if (!N.HomeLink.send2(MessageType::Release, &M, sizeof M, reinterpret_cast<void *>(StackLow),
                        uint32_t(N.Away.High - StackLow)))
    lostHome();
}

void holdHomeThreads(uint64_t StackLow) {
  NodeState &N = node();
  QuietLink Quiet;
  StackLow = onThreadStack(StackLow);
  if (!N.HomeLink.send(MessageType::Hold, nullptr, 0) ||
      !N.HomeLink.receiveExactly(MessageType::Held, reinterpret_cast<void *>(StackLow),
                                 uint32_t(N.Away.High - StackLow)))
    lostHome();
  // A move home asked for meanwhile found the pending flag's page home's
  // (Steering.cpp): flagged here, the page fetched first (this may run in
  // a signal handler, where a fault must not).
  if (N.SteeredNode) {
    touchPages(uint64_t(&__popcorn_migration_pending), sizeof __popcorn_migration_pending, true);
    __popcorn_migration_pending = 1;
  }
}

namespace {
// Whether call Number may wait for another thread of the program: a futex,
// a yield (a thread polling for another's work), a call of a row that
// waits (a pipe, a socket, a sleep).
bool mayWaitForOthers(long Number) {
  if (Number == sys::Futex || Number == sys::SchedYield)
    return true;
  int RowIndex = rowOf(Number, Here);
  return RowIndex >= 0 && SyscallRows[RowIndex].Wait != Waits::No &&
         (SyscallRows[RowIndex].Where == RunAt::Home || SyscallRows[RowIndex].Where == RunAt::Here);
}
} // namespace

void yieldToHome(uint64_t InterruptedSp) {
  NodeState &N = node();
  // Not in the middle of the runtime's own exchanges with home: home asks
  // again after its next slice.
  if (!N.OthersHeldAtHome || !N.ThreadHere || N.SignalHold || N.InFaultHandler)
    return;
  SignalsHeld Held;
#if defined(__x86_64__)
  constexpr uint64_t RedZone = 128; // the interrupted code's, below its stack pointer
#else
  constexpr uint64_t RedZone = 0;
#endif
  releaseHomeThreads(InterruptedSp - RedZone, true);
  holdHomeThreads(InterruptedSp - RedZone);
}

long remoteSyscall(long Number, const long *A) {
  // A handler run in the middle of the call's exchanges with home (or of
  // its use of the call buffer) could begin others.
  SignalsHeld Held;
  // The call may wait for or tell another process: memory shared with
  // them is home's before it, and what the thread reads of it after is
  // home's.
  syncMapSharedPages();
  NodeState &N = node();
  long R;
  if (N.OthersHeldAtHome && mayWaitForOthers(Number)) {
    // The program's other threads run at home meanwhile (HeldThreads.h),
    // and the call runs there: a futex on the word itself, a sleep or a
    // yield too (forward releases them around it).  From this frame up the
    // stack is the program's, and stays as it is but for what home's
    // threads write there.
    N.ReleaseFrom = uint64_t(__builtin_frame_address(0));
    int RowIndex = rowOf(Number, Here);
    if (Number == sys::Futex)
      R = sharedFutex(A);
    else if (SyscallRows[RowIndex].Where == RunAt::Here)
      R = forward(RowIndex, A);
    else
      R = runAway(Number, A);
    N.ReleaseFrom = 0; // a call refused before it went
  } else {
    R = runAway(Number, A);
  }
  syncMapSharedPages();
  return R;
}

} // namespace popcorn
