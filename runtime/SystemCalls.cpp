//===- SystemCalls.cpp - libc's system calls on every node ----------------===//
#include "SystemCalls.h"
#include "AddressSpace.h"
#include "ControlSocket.h"
#include "HomeNode.h"
#include "NodeMappings.h"
#include "NodeState.h"
#include "RemoteNode.h"
#include "Report.h"
#include "SyscallTable.h"
#include "Syscall.h"
#include "Trace.h"

namespace popcorn {

namespace {
constexpr long ENOSYS_ = 38, EINVAL_ = 22, ENOTTY_ = 25, ENOMEM_ = 12, ENAMETOOLONG_ = 36,
               EBADF_ = 9;
constexpr int64_t Null = -1; // a null pointer argument in a message

constexpr uint16_t Here = sys::Here;

struct IoVec {
  uint64_t Base, Bytes;
};

void copy(void *To, const void *From, uint64_t N) { __builtin_memcpy(To, From, N); }

// The data a row carries; ioctl's and System V control calls' depend on
// their command.
unsigned dataOf(const SyscallRow &Row, const int64_t *Args, DataArg *Out) {
  if (Row.Where == RunAt::Ioctl)
    return commandData(IoctlCommands, long(Args[1]), Out[0]) ? 1 : 0;
  unsigned N = 0;
  for (const DataArg &D : Row.Data) {
    if (D.Kind == Data::SemControl || D.Kind == Data::MsgControl || D.Kind == Data::ShmControl)
      N += ipcControlData(D, Args, Out[N]) ? 1 : 0;
    else if (D.Kind == Data::FcntlControl)
      N += commandData(FcntlCommands, long(Args[1]), Out[N]) ? 1 : 0;
    else if (D.Kind != Data::None)
      Out[N++] = D;
  }
  return N;
}

bool isOut(Data K) {
  return K == Data::Out || K == Data::OutFixed || K == Data::InOutFixed || K == Data::OutStat ||
         K == Data::OutIovec || K == Data::OutEpollEvents || K == Data::OutMessage ||
         K == Data::OutSemid;
}

// Kernel open flags that differ: aarch64's value, x86-64's value.
constexpr long OpenFlagPairs[][2] = {
    {040000, 0200000},  // O_DIRECTORY
    {0100000, 0400000}, // O_NOFOLLOW
    {0200000, 040000},  // O_DIRECT
    {0400000, 0100000}, // O_LARGEFILE
};

long openFlags(long Flags, uint16_t From, uint16_t To) {
  if (From == To)
    return Flags;
  int F = From == EmAArch64 ? 0 : 1, T = 1 - F;
  long Out = Flags;
  for (auto &P : OpenFlagPairs)
    Out &= ~P[F];
  for (auto &P : OpenFlagPairs)
    if (Flags & P[F])
      Out |= P[T];
  return Out;
}

// A kernel structure that x86-64 lays out its own way and aarch64 the
// generic way: where each field is on each ISA.
struct Layout {
  struct Field {
    uint8_t X86, AArch64, Bytes;
  };
  uint8_t X86Bytes, AArch64Bytes;
  Field Fields[13];

  uint64_t bytes(uint16_t Machine) const {
    return Machine == EmAArch64 ? AArch64Bytes : X86Bytes;
  }
};

constexpr Layout StatLayout = {144, 128, {{0, 0, 8}, {8, 8, 8}, {16, 20, 4}, {24, 16, 4},
                                          {28, 24, 4}, {32, 28, 4}, {40, 32, 8}, {48, 48, 8},
                                          {56, 56, 4}, {64, 64, 8}, {72, 72, 16}, {88, 88, 16},
                                          {104, 104, 16}}};
// struct semid64_ds: x86-64 has a padding word after each time.
constexpr Layout SemidLayout = {104, 88, {{0, 0, 48}, {48, 48, 8}, {64, 56, 8}, {80, 64, 8}}};
constexpr uint64_t MaxLayoutBytes = 144;

void convert(const Layout &L, const uint8_t *From, uint16_t FromMachine, uint8_t *To,
             uint16_t ToMachine) {
  if (FromMachine == ToMachine) {
    copy(To, From, L.bytes(FromMachine));
    return;
  }
  for (unsigned I = 0; I < L.bytes(ToMachine); I++)
    To[I] = 0;
  bool ToArm = ToMachine == EmAArch64;
  for (const Layout::Field &F : L.Fields)
    if (F.Bytes)
      copy(To + (ToArm ? F.AArch64 : F.X86), From + (ToArm ? F.X86 : F.AArch64), F.Bytes);
}

// The kernel's struct epoll_event: packed on x86-64 (the 64-bit data at
// offset 4, 12 bytes), naturally aligned on aarch64 (offset 8, 16 bytes).
uint64_t epollEventBytes(uint16_t Machine) { return Machine == EmX86_64 ? 12 : 16; }

void convertEpollEvents(const uint8_t *From, uint16_t FromMachine, uint8_t *To,
                        uint16_t ToMachine, uint64_t Count) {
  uint64_t FromBytes = epollEventBytes(FromMachine), ToBytes = epollEventBytes(ToMachine);
  uint64_t FromData = FromBytes - 8, ToData = ToBytes - 8;
  for (uint64_t I = 0; I < Count; I++) {
    uint8_t Event[16] = {};
    copy(Event, From + I * FromBytes, 4);
    copy(Event + ToData, From + I * FromBytes + FromData, 8);
    copy(To + I * ToBytes, Event, ToBytes);
  }
}

constexpr uint64_t MaxEpollEvents = SyscallDataBytes / 16;

//===-- Remote: a call of this node's libc -------------------------------===//

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
  DataArg Ds[2];
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
  long R = forward(RowIndex, A);
  if (sys::failed(R) || !A[1] || A[0] < 1 || A[0] > SignalCount)
    return R;
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
  SyscallMessage M{uint32_t(RowIndex), 0, {}};
  for (unsigned I = 0; I < SyscallArguments; I++)
    M.Args[I] = A[I];
  DataArg Ds[2];
  unsigned Count = dataOf(Row, M.Args, Ds);
  if (Row.Where == RunAt::Ioctl && !Count)
    return -ENOTTY_;

  uint8_t *Buf = N.SyscallBuffer;
  uint64_t Used = 0;
  for (unsigned I = 0; I < Count; I++) {
    const DataArg &D = Ds[I];
    void *P = reinterpret_cast<void *>(A[D.Arg]);
    if (!P) {
      M.Args[D.Arg] = Null;
      continue;
    }
    uint64_t Room = SyscallDataBytes - Used, Bytes = 0;
    switch (D.Kind) {
    case Data::In:
      Bytes = uint64_t(A[D.Size]) < Room ? uint64_t(A[D.Size]) : Room;
      M.Args[D.Size] = int64_t(Bytes);
      break;
    case Data::InFixed:
    case Data::InOutFixed:
      Bytes = D.Size;
      break;
    case Data::InEpollEvent:
      Bytes = epollEventBytes(Here);
      break;
    case Data::InSemid:
      Bytes = SemidLayout.bytes(Here);
      break;
    case Data::InSembufs:
      if (uint64_t(A[D.Size]) > Room / 6)
        return -EINVAL_;
      Bytes = 6 * uint64_t(A[D.Size]);
      break;
    case Data::InMessage:
      if (uint64_t(A[D.Size]) > Room - 8)
        return -EINVAL_;
      Bytes = 8 + uint64_t(A[D.Size]);
      break;
    case Data::OutMessage:
      M.Args[D.Size] = uint64_t(A[D.Size]) < SyscallDataBytes - 8 ? A[D.Size]
                                                                 : int64_t(SyscallDataBytes - 8);
      continue;
    case Data::OutEpollEvents:
      M.Args[D.Size] = uint64_t(A[D.Size]) < MaxEpollEvents ? A[D.Size] : int64_t(MaxEpollEvents);
      continue;
    case Data::String:
      Bytes = __builtin_strlen(static_cast<const char *>(P)) + 1;
      if (Bytes > Room)
        return -ENAMETOOLONG_;
      break;
    case Data::InIovec: {
      auto *V = static_cast<const IoVec *>(P);
      for (long K = 0; K < A[D.Size] && Used < SyscallDataBytes; K++) {
        uint64_t Part = V[K].Bytes < SyscallDataBytes - Used ? V[K].Bytes : SyscallDataBytes - Used;
        copy(Buf + Used, reinterpret_cast<const void *>(V[K].Base), Part);
        Used += Part;
      }
      M.Args[D.Arg] = 0;
      M.Args[D.Size] = int64_t(Used);
      continue;
    }
    case Data::Out:
      M.Args[D.Size] = uint64_t(A[D.Size]) < SyscallDataBytes ? A[D.Size] : int64_t(SyscallDataBytes);
      continue;
    case Data::OutIovec: {
      auto *V = static_cast<const IoVec *>(P);
      uint64_t Total = 0;
      for (long K = 0; K < A[D.Size]; K++)
        Total += V[K].Bytes;
      M.Args[D.Size] = int64_t(Total < SyscallDataBytes ? Total : SyscallDataBytes);
      continue;
    }
    default:
      continue;
    }
    if (Bytes > Room)
      return -EINVAL_;
    copy(Buf + Used, P, Bytes);
    M.Args[D.Arg] = int64_t(Used);
    Used += Bytes;
  }
  M.InBytes = uint32_t(Used);

  MessageHeader H;
  SyscallResultMessage R;
  TraceSpan Call(TraceKind::Syscall);
  if (!N.HomeLink.send2(MessageType::Syscall, &M, sizeof M, Buf, uint32_t(Used)) ||
      !N.HomeLink.receiveHeader(H) || H.Type != MessageType::SyscallResult ||
      H.Bytes < sizeof R || H.Bytes - sizeof R > 2 * SyscallDataBytes ||
      !N.HomeLink.receivePayload(&R, sizeof R) ||
      !N.HomeLink.receivePayload(Buf, H.Bytes - sizeof R))
    lostHome();
  N.SyscallsForwarded++;
  Call.finish(uint64_t(RowIndex));

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
      auto *V = reinterpret_cast<const IoVec *>(A[D.Arg]);
      uint64_t From = 0;
      for (long K = 0; K < A[D.Size] && From < Bytes; K++) {
        uint64_t Part = V[K].Bytes < Bytes - From ? V[K].Bytes : Bytes - From;
        copy(reinterpret_cast<void *>(V[K].Base), Buf + At + From, Part);
        From += Part;
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
    return -ENOSYS_;
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
      SignalsOpen Unblocked; // a signal pending here arrives as at home
      return sys::call6(Number, A[0], long(&Set), A[2], 8);
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
      return -ENOMEM_;
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
    if (Number == sys::Mprotect)
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
  return -ENOSYS_;
}

long remoteSyscall(long Number, const long *A) {
  // A handler run in the middle of the call's exchanges with home (or of
  // its use of the call buffer) could begin others.
  SignalsHeld Held;
  // The call may wait for or tell another process: memory shared with
  // them is home's before it, and what the thread reads of it after is
  // home's.
  syncMapSharedPages();
  long R = runAway(Number, A);
  syncMapSharedPages();
  return R;
}
} // namespace

//===-- Home: a call a remote node forwarded -----------------------------===//

namespace {
// Home: runs a node's call Row (home's Number) on Args, in home's layouts.
long runForwarded(const SyscallRow &Row, int16_t Number, long *Args, uint16_t Machine) {
  InterruptibleCall Waiting(Row.Name); // up to the call's end: before its result goes
  if (Number < 0)
    return -ENOSYS_;
  if (Number == sys::Fcntl) {
    long Command = Args[1];
    if (Command == 4) // F_SETFL
      Args[2] = openFlags(Args[2], Machine, Here);
    long Result = sys::call6(Number, Args[0], Args[1], Args[2]);
    return Command == 3 && Result >= 0 ? openFlags(Result, Here, Machine) : Result; // F_GETFL
  }
  if (Number == sys::RtSigaction) {
    long Result = sys::call6(Number, Args[0], Args[1], Args[2], Args[3]);
    if (Args[1]) {
      noteSignalActionSet();
      signalActionSetAway(node().ThreadNode);
    }
    return Result;
  }
  if (Number == sys::Mmap)
    return homeMmap(Args[0], Args[1], Args[2], Args[3], Args[4], Args[5]);
  if (Number == sys::Munmap)
    return homeMunmap(Args[0], Args[1]);
  if (Number == sys::Close && isRuntimeDescriptor(Args[0]))
    return -EBADF_;
  if (Number == sys::CloseRange)
    return closeProgramRange(uint32_t(Args[0]), uint32_t(Args[1]), Args[2]);
  // The node may hold newer copies of the pages than home: moving home's
  // would lose them.  libc allocates, copies and frees instead.
  if (Number == sys::Mremap)
    return -ENOMEM_;
  return sys::call6(Number, Args[0], Args[1], Args[2], Args[3], Args[4], Args[5]);
}
} // namespace

bool serveSyscall(Channel &Link, uint16_t Machine, uint32_t Bytes) {
  NodeState &N = node();
  SyscallMessage M;
  uint8_t *In = N.SyscallBuffer, *Out = N.SyscallBuffer + SyscallDataBytes;
  if (Bytes < sizeof M || Bytes - sizeof M > SyscallDataBytes ||
      !Link.receivePayload(&M, sizeof M) || !Link.receivePayload(In, Bytes - sizeof M))
    return false;
  uint64_t InBytes = Bytes - sizeof M;
  if (M.Call >= SyscallRowCount || M.InBytes != InBytes)
    return false;
  const SyscallRow &Row = SyscallRows[M.Call];
  DataArg Ds[2];
  unsigned Count = dataOf(Row, M.Args, Ds);
  long Args[SyscallArguments];
  for (unsigned I = 0; I < SyscallArguments; I++)
    Args[I] = long(M.Args[I]);

  IoVec Single;
  struct Output {
    uint8_t *At;
    uint64_t Room;
  } Outs[2] = {};
  // A structure with a layout per ISA, in home's layout (Kernel), and one
  // the node sent, converted (EpollEvent, SemidIn).
  uint8_t Kernel[MaxLayoutBytes], EpollEvent[16], SemidIn[MaxLayoutBytes];
  uint64_t OutUsed = 0;
  for (unsigned I = 0; I < Count; I++) {
    const DataArg &D = Ds[I];
    if (M.Args[D.Arg] == Null) {
      Args[D.Arg] = 0;
      continue;
    }
    uint64_t Offset = uint64_t(M.Args[D.Arg]), Size = 0;
    switch (D.Kind) {
    case Data::In:
    case Data::InIovec:
      Size = uint64_t(M.Args[D.Size]);
      break;
    case Data::InFixed:
    case Data::InOutFixed:
      Size = D.Size;
      break;
    case Data::InEpollEvent:
      Size = epollEventBytes(Machine);
      break;
    case Data::InSemid:
      Size = SemidLayout.bytes(Machine);
      break;
    case Data::InSembufs:
      if (uint64_t(M.Args[D.Size]) > InBytes / 6)
        return false;
      Size = 6 * uint64_t(M.Args[D.Size]);
      break;
    case Data::InMessage:
      if (uint64_t(M.Args[D.Size]) > InBytes)
        return false;
      Size = 8 + uint64_t(M.Args[D.Size]);
      break;
    case Data::String:
      Size = 1;
      while (Offset + Size <= InBytes && In[Offset + Size - 1])
        Size++;
      break;
    case Data::Out:
    case Data::OutIovec:
    case Data::OutFixed:
    case Data::OutStat:
    case Data::OutSemid:
    case Data::OutMessage:
    case Data::OutEpollEvents: {
      if ((D.Kind == Data::OutEpollEvents && uint64_t(M.Args[D.Size]) > MaxEpollEvents) ||
          (D.Kind == Data::OutMessage && uint64_t(M.Args[D.Size]) > SyscallDataBytes))
        return false;
      bool Laid = D.Kind == Data::OutStat || D.Kind == Data::OutSemid;
      uint64_t Room = D.Kind == Data::OutFixed         ? D.Size
                      : Laid                           ? sizeof Kernel
                      : D.Kind == Data::OutEpollEvents ? uint64_t(M.Args[D.Size]) * 16
                      : D.Kind == Data::OutMessage     ? 8 + uint64_t(M.Args[D.Size])
                                                       : uint64_t(M.Args[D.Size]);
      if (Room > SyscallDataBytes - OutUsed)
        return false;
      Outs[I] = {Laid ? Kernel : Out + OutUsed, Room};
      OutUsed += Room;
      Args[D.Arg] = long(Outs[I].At);
      if (D.Kind == Data::OutIovec) {
        Single = {uint64_t(Outs[I].At), Room};
        Args[D.Arg] = long(&Single);
        Args[D.Size] = 1;
      }
      continue;
    }
    default:
      continue;
    }
    if (Offset > InBytes || Size > InBytes - Offset)
      return false;
    Args[D.Arg] = long(In + Offset);
    if (D.Kind == Data::InOutFixed) {
      if (Size > SyscallDataBytes - OutUsed)
        return false;
      Outs[I] = {Out + OutUsed, Size};
      OutUsed += Size;
      copy(Outs[I].At, In + Offset, Size);
      Args[D.Arg] = long(Outs[I].At);
    }
    if (D.Kind == Data::InEpollEvent) {
      convertEpollEvents(In + Offset, Machine, EpollEvent, Here, 1);
      Args[D.Arg] = long(EpollEvent);
    }
    if (D.Kind == Data::InSemid) {
      convert(SemidLayout, In + Offset, Machine, SemidIn, Here);
      Args[D.Arg] = long(SemidIn);
    }
    if (D.Kind == Data::InIovec) {
      Single = {uint64_t(In + Offset), Size};
      Args[D.Arg] = long(&Single);
      Args[D.Size] = 1;
    }
  }
  if (Row.OpenFlagsArg >= 0)
    Args[Row.OpenFlagsArg] = openFlags(Args[Row.OpenFlagsArg], Machine, Here);

  int16_t Number = numberOn(Row, Here);
  noteMappingCall(Number, Args[0], Args[1], Args[2], Args[3]);
  if (Number >= 0 && (Number == sys::Dup2 || Number == sys::Dup3) && Args[0] != Args[1])
    moveRuntimeDescriptor(Args[1]); // the program gets that number
  long Result = runForwarded(Row, Number, Args, Machine);

  // The outputs, each as its length and its bytes.
  uint8_t *Reply = Out + OutUsed;
  uint64_t ReplyBytes = 0;
  uint8_t Converted[MaxLayoutBytes];
  for (unsigned I = 0; I < Count; I++) {
    const DataArg &D = Ds[I];
    if (!isOut(D.Kind) || !Args[D.Arg])
      continue;
    const uint8_t *From = Outs[I].At;
    uint64_t Bytes = Outs[I].Room;
    if (D.Kind == Data::Out || D.Kind == Data::OutIovec)
      Bytes = Result > 0 ? (uint64_t(Result) < Bytes ? uint64_t(Result) : Bytes) : 0;
    if (D.Kind == Data::OutStat || D.Kind == Data::OutSemid) {
      const Layout &L = D.Kind == Data::OutStat ? StatLayout : SemidLayout;
      convert(L, Kernel, Here, Converted, Machine);
      From = Converted;
      Bytes = Result >= 0 ? L.bytes(Machine) : 0;
    }
    if (D.Kind == Data::OutMessage)
      Bytes = Result >= 0 && uint64_t(Result) <= Bytes - 8 ? 8 + uint64_t(Result) : 0;
    uint64_t Events = 0;
    if (D.Kind == Data::OutEpollEvents) {
      Events = Result > 0 ? uint64_t(Result) : 0;
      if (Events > uint64_t(Args[D.Size]))
        return false;
      Bytes = Events * epollEventBytes(Machine);
    }
    if (OutUsed + ReplyBytes + 8 + Bytes > 2 * SyscallDataBytes)
      return false;
    copy(Reply + ReplyBytes, &Bytes, 8);
    if (D.Kind == Data::OutEpollEvents)
      convertEpollEvents(From, Here, Reply + ReplyBytes + 8, Machine, Events);
    else
      copy(Reply + ReplyBytes + 8, From, Bytes);
    ReplyBytes += 8 + Bytes;
  }
  SyscallResultMessage R{Result, ReplyBytes};
  N.SyscallsForwarded++;
  return Link.send2(MessageType::SyscallResult, &R, sizeof R, Reply, uint32_t(ReplyBytes));
}

} // namespace popcorn

using namespace popcorn;

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
    return -ENOMEM_;
  case sys::Close:
    // A program that closes every descriptor past the standard streams
    // (as daemons do) would cut the links to its nodes: to it they are
    // not open.
    if (isRuntimeDescriptor(A))
      return -EBADF_;
    break;
  case sys::ExitGroup:
    closeControlSocket();
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
