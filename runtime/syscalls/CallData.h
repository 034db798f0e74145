//===- CallData.h - A forwarded call's data, as both ends lay it out -*- C++ -*-===//
//
// A system call a remote node forwards carries its data in the Syscall
// message (link/Message.h): each input of its row (link/SyscallTable.h)
// laid one after the other, its offset in place of the pointer argument;
// each output comes back as its length and its bytes.  What both ends
// must agree on is here: which data a row carries, how many bytes each
// input is, and the kernel structures x86-64 lays out its own way.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SYSCALLS_CALLDATA_H
#define POPCORN_RUNTIME_SYSCALLS_CALLDATA_H

#include "link/Message.h"
#include "link/SyscallTable.h"
#include "syscalls/SystemCalls.h"

namespace popcorn {

inline constexpr int64_t Null = -1; // a null pointer argument in a message

struct IoVec {
  uint64_t Base, Bytes;
};

inline void copy(void *To, const void *From, uint64_t N) { __builtin_memcpy(To, From, N); }

inline uint64_t least(uint64_t A, uint64_t B) { return A < B ? A : B; }

/// The bytes of Count iovecs at V, at most Room of them, gathered at To.
uint64_t gather(const IoVec *V, int64_t Count, uint8_t *To, uint64_t Room);
/// The bytes Count iovecs at V hold.
uint64_t iovecBytes(const IoVec *V, int64_t Count);
/// Bytes bytes at From, scattered over Count iovecs at V.
void scatter(const IoVec *V, int64_t Count, const uint8_t *From, uint64_t Bytes);

// The room an address or option value has at most (OutLengthAt, a
// message's name; struct sockaddr_storage takes 128 bytes), and a
// message's control data.
inline constexpr uint64_t MaxLengthAt = 4096, MaxControlBytes = 65536;

// The bytes of one element of data counted in elements: struct sembuf,
// struct pollfd.
inline uint64_t elementBytes(Data K) { return K == Data::InSembufs ? 6 : 8; }

// select's fd_set of Fds bits, as the kernel reads it: whole longs.
inline uint64_t fdSetBytes(int64_t Fds) {
  return Fds < 0 ? ~uint64_t(0) : (uint64_t(Fds) + 63) / 64 * 8;
}

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

/// Node: the room M has for recvmsg's name, control data and bytes, as
/// much as one call carries.
MsghdrSizes roomsOf(const KernelMsghdr &M);
/// Node: sendmsg's M, its sizes then its name, control data and bytes (as
/// many as fit in Room, as a write may be cut short), at To; 0 if its name
/// and control data do not fit.
uint64_t packMsghdr(const KernelMsghdr &M, uint8_t *To, uint64_t Room);
/// Node: recvmsg's reply (From, Bytes) into M, whose rooms home had.
void unpackMsghdr(KernelMsghdr &M, const uint8_t *From, uint64_t Bytes);
/// Home: M over a name, control data and bytes of sizes S laid one after
/// the other at At, its one iovec Data.
void layMsghdr(const MsghdrSizes &S, uint8_t *At, KernelMsghdr &M, IoVec &Data);

/// The data a row carries; ioctl's and System V control calls' depend on
/// their command.
unsigned dataOf(const SyscallRow &Row, const int64_t *Args, DataArg *Out);

/// Data the call reads and writes back in place.
inline bool isInOut(Data K) {
  return K == Data::InOutFixed || K == Data::InOutPollFds || K == Data::InOutFdSet;
}

inline bool isOut(Data K) {
  return K == Data::Out || K == Data::OutFixed || isInOut(K) || K == Data::OutStat ||
         K == Data::OutIovec || K == Data::OutEpollEvents || K == Data::OutMessage ||
         K == Data::OutSemid || K == Data::OutLengthAt || K == Data::OutMsghdr;
}

/// The kernel's open flags of an ISA From, as ISA To numbers them.
long openFlags(long Flags, uint16_t From, uint16_t To);


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

inline constexpr Layout StatLayout = {144, 128, {{0, 0, 8}, {8, 8, 8}, {16, 20, 4}, {24, 16, 4},
                                          {28, 24, 4}, {32, 28, 4}, {40, 32, 8}, {48, 48, 8},
                                          {56, 56, 4}, {64, 64, 8}, {72, 72, 16}, {88, 88, 16},
                                          {104, 104, 16}}};
// struct semid64_ds: x86-64 has a padding word after each time.
inline constexpr Layout SemidLayout = {104, 88, {{0, 0, 48}, {48, 48, 8}, {64, 56, 8}, {80, 64, 8}}};
inline constexpr uint64_t MaxLayoutBytes = 144;

/// A structure of layout L from FromMachine's at From to ToMachine's at To.
void convert(const Layout &L, const uint8_t *From, uint16_t FromMachine, uint8_t *To,
             uint16_t ToMachine);

// The kernel's struct epoll_event: packed on x86-64 (the 64-bit data at
// offset 4, 12 bytes), naturally aligned on aarch64 (offset 8, 16 bytes).
inline uint64_t epollEventBytes(uint16_t Machine) { return Machine == EmX86_64 ? 12 : 16; }

void convertEpollEvents(const uint8_t *From, uint16_t FromMachine, uint8_t *To,
                        uint16_t ToMachine, uint64_t Count);

inline constexpr uint64_t MaxEpollEvents = SyscallDataBytes / 16;

/// The bytes input D of a call on Args carries, as a node of ISA Machine
/// lays it out, for the inputs whose size the arguments alone fix (true):
/// both ends size them so.  A count too large for Room bytes makes a size
/// larger than Room.  False for the others (a string, an iovec, a
/// message header, an output), which each end sizes its own way.
bool sizedInput(const DataArg &D, const int64_t *Args, uint16_t Machine, uint64_t Room,
                uint64_t &Bytes);

} // namespace popcorn

#endif
