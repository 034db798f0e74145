//===- CallData.cpp - A forwarded call's data, as both ends lay it out ----===//
#include "syscalls/CallData.h"

namespace popcorn {

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

bool sizedInput(const DataArg &D, const int64_t *Args, uint16_t Machine, uint64_t Room,
                uint64_t &Bytes) {
  switch (D.Kind) {
  case Data::InFixed:
  case Data::InOutFixed:
    Bytes = D.Size;
    return true;
  case Data::InOutFdSet:
    Bytes = fdSetBytes(Args[0]);
    return true;
  case Data::CallMask:
  case Data::CallMaskPair:
    Bytes = 8;
    return true;
  case Data::InEpollEvent:
    Bytes = epollEventBytes(Machine);
    return true;
  case Data::InSemid:
    Bytes = SemidLayout.bytes(Machine);
    return true;
  case Data::InSembufs:
  case Data::InOutPollFds:
    Bytes = uint64_t(Args[D.Size]) > Room / elementBytes(D.Kind)
                ? Room + 1
                : elementBytes(D.Kind) * uint64_t(Args[D.Size]);
    return true;
  case Data::InMessage: // its type, then its text
    Bytes = uint64_t(Args[D.Size]) > Room - 8 ? Room + 1 : 8 + uint64_t(Args[D.Size]);
    return true;
  default:
    return false;
  }
}

} // namespace popcorn
