//===- ServeCalls.cpp - Home runs the system calls its nodes forward ------===//
//
// A node's call runs at home as the program's own would, on the data the
// message carries, converted to home's layouts; its outputs go back
// converted to the node's.
//
//===----------------------------------------------------------------------===//
#include "memory/AddressSpace.h"
#include "signals/SignalState.h"
#include "state/NodeState.h"
#include "support/Syscall.h"
#include "syscalls/CallData.h"
#include "syscalls/LegacyCalls.h"
#include "syscalls/RuntimeDescriptors.h"

// musl's cancellable system call (src/thread/pthread_cancel.c).
extern "C" long __syscall_cp(long, long, long, long, long, long, long);

namespace popcorn {

namespace {
constexpr uint16_t Here = sys::Here;

// Home: runs a node's call Row (home's Number) on Args, in home's layouts;
// the thread's signal mask, or the call's own (ppoll's, pselect6's),
// blocks KeptBlocked.  Arrived: the signals for the node that came
// meanwhile.
long runForwarded(const SyscallRow &Row, int16_t Number, long *Args, uint16_t Machine,
                  uint64_t KeptBlocked, uint64_t &Arrived) {
  // Up to the call's end: before its result goes.
  InterruptibleCall Waiting(Row.Wait, KeptBlocked, Arrived);
  if (Number < 0)
    return -sys::Enosys;
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
    return -sys::Ebadf;
  if (Number == sys::CloseRange)
    return closeProgramRange(uint32_t(Args[0]), uint32_t(Args[1]), Args[2]);
  // The node sent its newer copies of the pages home before asking.
  if (Number == sys::Mremap)
    return homeMremap(Args[0], Args[1], Args[2], Args[3], Args[4]);
  // A call that waits is a cancellation point, here too (musl's: the
  // serving thread's thread pointer is the thread's own).
  if (Row.Wait != Waits::No) {
    uint64_t Cancel = signalBit(CancelSignal);
    sys::call6(sys::RtSigprocmask, 1 /* SIG_UNBLOCK */, long(&Cancel), 0, 8);
    long Result = __syscall_cp(Number, Args[0], Args[1], Args[2], Args[3], Args[4], Args[5]);
    sys::call6(sys::RtSigprocmask, 0 /* SIG_BLOCK */, long(&Cancel), 0, 8);
    return Result;
  }
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
    default: // sized as the node sized it
      if (!sizedInput(D, M.Args, Machine, InBytes, Size))
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
  // A call home's kernel lacks (a node of another ISA forwarded it) runs
  // as the one that replaced it; Args keep the node's call, whose data
  // goes back below.
  ReplacementCall Instead;
  bool Replaced = Number < 0 && replaceLegacyCall(Row, Args, Instead);
  if (Replaced)
    Number = Instead.Number;
  noteMappingCall(Number, Args[0], Args[1], Args[2], Args[3]);
  if (Number >= 0 && (Number == sys::Dup2 || Number == sys::Dup3) && Args[0] != Args[1])
    moveRuntimeDescriptor(Args[1]); // the program gets that number
  uint64_t Arrived = 0; // signals for the node
  long Result = runForwarded(Row, Number, Replaced ? Instead.Args : Args, Machine, KeptBlocked,
                             Arrived);
  if (Replaced && Instead.ResultIsFirstArgument && Result >= 0)
    Result = Args[0];

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
    static_assert(SyscallBufferBytes >= 4 * SyscallDataBytes, "inputs, outputs and a reply");
    // The reply follows the outputs in the buffer, which has room for
    // twice SyscallDataBytes after them, as much as a node takes: a read
    // of SyscallDataBytes (its cap) returns them all.
    if (ReplyBytes + 8 + Bytes > 2 * SyscallDataBytes)
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
