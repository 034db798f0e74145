//===- SystemCalls.cpp - libc's system calls on every node ----------------===//
#include "syscalls/SystemCalls.h"
#include "memory/AddressSpace.h"
#include "control/ControlSocket.h"
#include "syscalls/RuntimeDescriptors.h"
#include "memory/NodeMappings.h"
#include "state/NodeState.h"
#include "memory/RemotePages.h"
#include "state/NodeFailure.h"
#include "support/Report.h"
#include "link/SyscallTable.h"
#include "support/Syscall.h"
#include "trace/Trace.h"

namespace popcorn {

namespace {
constexpr long ENOSYS_ = 38, EINVAL_ = 22, ENOTTY_ = 25, ENOMEM_ = 12, ENAMETOOLONG_ = 36,
               EBADF_ = 9, EFAULT_ = 14, EMSGSIZE_ = 90;
constexpr int64_t Null = -1; // a null pointer argument in a message

constexpr uint16_t Here = sys::Here;

struct IoVec {
  uint64_t Base, Bytes;
};

void copy(void *To, const void *From, uint64_t N) { __builtin_memcpy(To, From, N); }

uint64_t least(uint64_t A, uint64_t B) { return A < B ? A : B; }

// The bytes of Count iovecs at V, at most Room of them, gathered at To.
uint64_t gather(const IoVec *V, int64_t Count, uint8_t *To, uint64_t Room) {
  uint64_t Used = 0;
  for (int64_t K = 0; K < Count && Used < Room; K++) {
    uint64_t Part = least(V[K].Bytes, Room - Used);
    copy(To + Used, reinterpret_cast<const void *>(V[K].Base), Part);
    Used += Part;
  }
  return Used;
}

// The bytes Count iovecs at V hold.
uint64_t iovecBytes(const IoVec *V, int64_t Count) {
  uint64_t Total = 0;
  for (int64_t K = 0; K < Count; K++)
    Total += V[K].Bytes;
  return Total;
}

// Bytes bytes at From, scattered over Count iovecs at V.
void scatter(const IoVec *V, int64_t Count, const uint8_t *From, uint64_t Bytes) {
  uint64_t Done = 0;
  for (int64_t K = 0; K < Count && Done < Bytes; K++) {
    uint64_t Part = least(V[K].Bytes, Bytes - Done);
    copy(reinterpret_cast<void *>(V[K].Base), From + Done, Part);
    Done += Part;
  }
}

// The room an address or option value has at most (OutLengthAt, a
// message's name; struct sockaddr_storage takes 128 bytes), and a
// message's control data.
constexpr uint64_t MaxLengthAt = 4096, MaxControlBytes = 65536;

// The bytes of one element of data counted in elements: struct sembuf,
// struct pollfd.
uint64_t elementBytes(Data K) { return K == Data::InSembufs ? 6 : 8; }

// select's fd_set of Fds bits, as the kernel reads it: whole longs.
uint64_t fdSetBytes(int64_t Fds) { return Fds < 0 ? ~uint64_t(0) : (uint64_t(Fds) + 63) / 64 * 8; }

// The kernel's struct msghdr: one layout on both ISAs (musl's, whose
// padding words its sendmsg and recvmsg clear, is the kernel's).
struct KernelMsghdr {
  uint64_t Name;
  uint32_t NameBytes, Pad0;
  uint64_t Iov, IovCount, Control, ControlBytes;
  int32_t Flags;
  uint32_t Pad1;
};

// Node: the room M has for recvmsg's name, control data and bytes, as
// much as one call carries.
MsghdrSizes roomsOf(const KernelMsghdr &M) {
  MsghdrSizes S{uint32_t(M.Name ? least(M.NameBytes, MaxLengthAt) : 0), 0,
                M.Control ? least(M.ControlBytes, MaxControlBytes) : 0, 0};
  S.DataBytes = least(iovecBytes(reinterpret_cast<const IoVec *>(M.Iov), int64_t(M.IovCount)),
                      SyscallDataBytes - sizeof S - S.NameBytes - S.ControlBytes);
  return S;
}

// Node: sendmsg's M, its sizes then its name, control data and bytes (as
// many as fit in Room, as a write may be cut short), at To; 0 if its name
// and control data do not fit.
uint64_t packMsghdr(const KernelMsghdr &M, uint8_t *To, uint64_t Room) {
  MsghdrSizes S{M.Name ? M.NameBytes : 0, M.Flags, M.Control ? M.ControlBytes : 0, 0};
  if (S.NameBytes > MaxLengthAt || S.ControlBytes > MaxControlBytes ||
      sizeof S + S.NameBytes + S.ControlBytes > Room)
    return 0;
  uint8_t *Name = To + sizeof S, *Control = Name + S.NameBytes, *Data = Control + S.ControlBytes;
  copy(Name, reinterpret_cast<const void *>(M.Name), S.NameBytes);
  copy(Control, reinterpret_cast<const void *>(M.Control), S.ControlBytes);
  S.DataBytes = gather(reinterpret_cast<const IoVec *>(M.Iov), int64_t(M.IovCount), Data,
                       Room - uint64_t(Data - To));
  copy(To, &S, sizeof S);
  return uint64_t(Data - To) + S.DataBytes;
}

// Node: recvmsg's reply (From, Bytes) into M, whose rooms home had.
void unpackMsghdr(KernelMsghdr &M, const uint8_t *From, uint64_t Bytes) {
  MsghdrSizes Rooms = roomsOf(M), Got;
  if (Bytes < sizeof Got)
    return;
  copy(&Got, From, sizeof Got);
  uint64_t Name = least(Got.NameBytes, Rooms.NameBytes);
  uint64_t Control = least(Got.ControlBytes, Rooms.ControlBytes);
  uint64_t Data = least(Got.DataBytes, Rooms.DataBytes);
  if (sizeof Got + Name + Control + Data > Bytes)
    return;
  From += sizeof Got;
  copy(reinterpret_cast<void *>(M.Name), From, Name);
  copy(reinterpret_cast<void *>(M.Control), From + Name, Control);
  scatter(reinterpret_cast<const IoVec *>(M.Iov), int64_t(M.IovCount), From + Name + Control, Data);
  M.NameBytes = Got.NameBytes;
  M.ControlBytes = Control;
  M.Flags = Got.Flags;
}

// Home: M over a name, control data and bytes of sizes S laid one after
// the other at At, its one iovec Data.
void layMsghdr(const MsghdrSizes &S, uint8_t *At, KernelMsghdr &M, IoVec &Data) {
  Data = {uint64_t(At + S.NameBytes + S.ControlBytes), S.DataBytes};
  M = {S.NameBytes ? uint64_t(At) : 0, S.NameBytes, 0, uint64_t(&Data), 1,
       S.ControlBytes ? uint64_t(At + S.NameBytes) : 0, S.ControlBytes, S.Flags, 0};
}

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

// Data the call reads and writes back in place.
bool isInOut(Data K) {
  return K == Data::InOutFixed || K == Data::InOutPollFds || K == Data::InOutFdSet;
}

bool isOut(Data K) {
  return K == Data::Out || K == Data::OutFixed || isInOut(K) || K == Data::OutStat ||
         K == Data::OutIovec || K == Data::OutEpollEvents || K == Data::OutMessage ||
         K == Data::OutSemid || K == Data::OutLengthAt || K == Data::OutMsghdr;
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
    return -ENOTTY_;

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
    case Data::InOutFdSet:
      Bytes = fdSetBytes(A[0]);
      break;
    case Data::CallMask:
    case Data::CallMaskPair:
      Bytes = 8;
      break;
    case Data::OutLengthAt:
      if (!A[D.Size])
        return -EFAULT_;
      M.Args[D.Size] = int64_t(least(*reinterpret_cast<const uint32_t *>(A[D.Size]), MaxLengthAt));
      continue;
    case Data::InMsghdr:
      Bytes = packMsghdr(*static_cast<const KernelMsghdr *>(P), Buf + Used, Room);
      if (!Bytes)
        return -EMSGSIZE_;
      M.Args[D.Arg] = int64_t(Used);
      Used += Bytes;
      continue;
    case Data::OutMsghdr: {
      MsghdrSizes Rooms = roomsOf(*static_cast<const KernelMsghdr *>(P));
      if (sizeof Rooms > Room)
        return -EINVAL_;
      copy(Buf + Used, &Rooms, sizeof Rooms);
      M.Args[D.Arg] = int64_t(Used);
      Used += sizeof Rooms;
      continue;
    }
    case Data::In:
      Bytes = least(uint64_t(A[D.Size]), Room);
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
    case Data::InOutPollFds:
      if (uint64_t(A[D.Size]) > Room / elementBytes(D.Kind))
        return -EINVAL_;
      Bytes = elementBytes(D.Kind) * uint64_t(A[D.Size]);
      break;
    case Data::InMessage:
      if (uint64_t(A[D.Size]) > Room - 8)
        return -EINVAL_;
      Bytes = 8 + uint64_t(A[D.Size]);
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
        return -ENAMETOOLONG_;
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

//===-- Home: a call a remote node forwarded -----------------------------===//

namespace {
// Home: runs a node's call Row (home's Number) on Args, in home's layouts;
// the thread's signal mask, or the call's own (ppoll's, pselect6's),
// blocks KeptBlocked.  Arrived: the signals for the node that came
// meanwhile.
long runForwarded(const SyscallRow &Row, int16_t Number, long *Args, uint16_t Machine,
                  uint64_t KeptBlocked, uint64_t &Arrived) {
  // Up to the call's end: before its result goes.
  InterruptibleCall Waiting(Row.Wait, KeptBlocked, Arrived);
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
  DataArg Ds[MaxRowData];
  unsigned Count = dataOf(Row, M.Args, Ds);
  long Args[SyscallArguments];
  for (unsigned I = 0; I < SyscallArguments; I++)
    Args[I] = long(M.Args[I]);

  IoVec Single;
  KernelMsghdr Msghdr;   // sendmsg's or recvmsg's, over Single
  MsghdrSizes MsgRooms;  // recvmsg's
  uint64_t KeptBlocked = M.Blocked; // or by the call's own mask (CallMask)
  struct Output {
    uint8_t *At;
    uint64_t Room;
  } Outs[MaxRowData] = {};
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
    case Data::InOutFdSet:
      Size = fdSetBytes(M.Args[0]);
      break;
    case Data::CallMask:
    case Data::CallMaskPair:
      Size = 8;
      break;
    case Data::InMsghdr:
    case Data::OutMsghdr:
      Size = sizeof MsgRooms;
      break;
    case Data::OutLengthAt: {
      uint64_t Room = uint64_t(M.Args[D.Size]);
      if (Room > MaxLengthAt || 4 + Room > SyscallDataBytes - OutUsed)
        return false;
      Outs[I] = {Out + OutUsed, 4 + Room};
      OutUsed += 4 + Room;
      uint32_t Length = uint32_t(Room);
      copy(Outs[I].At, &Length, 4);
      Args[D.Arg] = long(Outs[I].At + 4);
      Args[D.Size] = long(Outs[I].At);
      continue;
    }
    case Data::InEpollEvent:
      Size = epollEventBytes(Machine);
      break;
    case Data::InSemid:
      Size = SemidLayout.bytes(Machine);
      break;
    case Data::InSembufs:
    case Data::InOutPollFds:
      if (uint64_t(M.Args[D.Size]) > InBytes / elementBytes(D.Kind))
        return false;
      Size = elementBytes(D.Kind) * uint64_t(M.Args[D.Size]);
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
    if (D.Kind == Data::CallMask || D.Kind == Data::CallMaskPair) {
      copy(&KeptBlocked, In + Offset, 8);
      Args[D.Arg] = 0; // home waits with its own mask
    }
    if (D.Kind == Data::InMsghdr || D.Kind == Data::OutMsghdr) {
      MsghdrSizes Sizes;
      copy(&Sizes, In + Offset, sizeof Sizes);
      uint8_t *At = In + Offset + sizeof Sizes;
      uint64_t Room = D.Kind == Data::InMsghdr ? InBytes - Offset - sizeof Sizes
                                                : SyscallDataBytes - OutUsed;
      if (Sizes.NameBytes > MaxLengthAt || Sizes.ControlBytes > MaxControlBytes ||
          Sizes.DataBytes > Room || Sizes.NameBytes + Sizes.ControlBytes > Room - Sizes.DataBytes)
        return false;
      if (D.Kind == Data::OutMsghdr) {
        MsgRooms = Sizes;
        At = Out + OutUsed;
        Outs[I] = {At, Sizes.NameBytes + Sizes.ControlBytes + Sizes.DataBytes};
        OutUsed += Outs[I].Room;
      }
      layMsghdr(Sizes, At, Msghdr, Single);
      Args[D.Arg] = long(&Msghdr);
    }
    if (isInOut(D.Kind)) {
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
  uint64_t Arrived = 0; // signals for the node
  long Result = runForwarded(Row, Number, Args, Machine, KeptBlocked, Arrived);

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
      Bytes = Result > 0 ? least(uint64_t(Result), Bytes) : 0;
    if (D.Kind == Data::OutStat || D.Kind == Data::OutSemid) {
      const Layout &L = D.Kind == Data::OutStat ? StatLayout : SemidLayout;
      convert(L, Kernel, Here, Converted, Machine);
      From = Converted;
      Bytes = Result >= 0 ? L.bytes(Machine) : 0;
    }
    if (D.Kind == Data::OutMessage)
      Bytes = Result >= 0 && uint64_t(Result) <= Bytes - 8 ? 8 + uint64_t(Result) : 0;
    if (D.Kind == Data::OutLengthAt) {
      uint32_t Length;
      copy(&Length, From, 4);
      Bytes = Result >= 0 ? 4 + least(Length, Bytes - 4) : 0;
    }
    MsghdrSizes Got{};
    if (D.Kind == Data::OutMsghdr) {
      Got = {Msghdr.NameBytes, Msghdr.Flags, least(Msghdr.ControlBytes, MsgRooms.ControlBytes),
             Result > 0 ? least(uint64_t(Result), MsgRooms.DataBytes) : 0};
      Bytes = Result >= 0 ? sizeof Got + least(Got.NameBytes, MsgRooms.NameBytes) +
                                Got.ControlBytes + Got.DataBytes
                          : 0;
    }
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
    uint8_t *To = Reply + ReplyBytes + 8;
    if (D.Kind == Data::OutEpollEvents) {
      convertEpollEvents(From, Here, To, Machine, Events);
    } else if (D.Kind == Data::OutMsghdr && Bytes) {
      // The name's bytes, the control data's and the data's, each cut
      // to what the call wrote.
      uint64_t Name = least(Got.NameBytes, MsgRooms.NameBytes);
      copy(To, &Got, sizeof Got);
      copy(To + sizeof Got, From, Name);
      copy(To + sizeof Got + Name, From + MsgRooms.NameBytes, Got.ControlBytes);
      copy(To + sizeof Got + Name + Got.ControlBytes,
           From + MsgRooms.NameBytes + MsgRooms.ControlBytes, Got.DataBytes);
    } else {
      copy(To, From, Bytes);
    }
    ReplyBytes += 8 + Bytes;
  }
  SyscallResultMessage R{Result, ReplyBytes, Arrived};
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
