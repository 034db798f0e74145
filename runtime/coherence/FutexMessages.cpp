//===- FutexMessages.cpp - Futex messages checked, and served at home ------===//
#include "coherence/FutexMessages.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

// Both ISAs' user space ends below 2^48; a word past it is no word of the
// program's.
constexpr uint64_t UserAddressEnd = uint64_t(1) << 48;
constexpr uint32_t MaxKernelCount = 0x7fffffff;

// The payload as its type: copied, since a receive buffer need not be
// aligned for it.
template <typename T> bool read(const void *Payload, uint32_t Bytes, T &Out) {
  if (Bytes != sizeof(T))
    return false;
  __builtin_memcpy(&Out, Payload, sizeof(T));
  return true;
}

FutexFault checkWord(uint64_t Address) {
  if (Address % 4)
    return FutexFault::Misaligned;
  if (!Address || Address >= UserAddressEnd)
    return FutexFault::AddressOutOfRange;
  return FutexFault::None;
}

FutexFault checkThread(uint32_t Thread, uint32_t Threads) {
  return Thread < Threads ? FutexFault::None : FutexFault::ThreadOutOfRange;
}

FutexFault checkFlags(uint32_t Flags, uint32_t Known) {
  return Flags & ~Known ? FutexFault::UnknownFlags : FutexFault::None;
}

FutexFault checkBits(uint32_t Bits) { return Bits ? FutexFault::None : FutexFault::NoBits; }

FutexFault checkPad(uint32_t Pad) { return Pad ? FutexFault::NonzeroPad : FutexFault::None; }

FutexFault checkCount(uint32_t Count) {
  return Count <= MaxKernelCount ? FutexFault::None : FutexFault::CountOutOfRange;
}

// The first fault of a message's checks, in the order given.
template <typename... Faults> FutexFault firstOf(FutexFault F, Faults... Rest) {
  if constexpr (sizeof...(Rest) == 0)
    return F;
  else
    return F != FutexFault::None ? F : firstOf(Rest...);
}

FutexFault decodeWait(const void *Payload, uint32_t Bytes, uint32_t Threads, FutexRequest &R) {
  FutexWaitMessage M;
  if (!read(Payload, Bytes, M))
    return FutexFault::WrongSize;
  R.Word = {M.Address, bool(M.Flags & FutexShared)};
  R.Token = M.Token;
  R.Thread = M.Thread;
  R.Expected = M.Expected;
  R.Bits = M.Bits;
  return firstOf(checkWord(M.Address), checkFlags(M.Flags, FutexShared), checkBits(M.Bits),
                 checkThread(M.Thread, Threads));
}

FutexFault decodeWake(const void *Payload, uint32_t Bytes, FutexRequest &R) {
  FutexWakeMessage M;
  if (!read(Payload, Bytes, M))
    return FutexFault::WrongSize;
  R.Word = {M.Address, bool(M.Flags & FutexShared)};
  R.Token = M.Token;
  R.Count = M.Count;
  R.Bits = M.Bits;
  return firstOf(checkWord(M.Address), checkFlags(M.Flags, FutexShared), checkPad(M.Pad),
                 checkBits(M.Bits), checkCount(M.Count));
}

FutexFault decodeRequeue(const void *Payload, uint32_t Bytes, FutexRequest &R) {
  FutexRequeueMessage M;
  if (!read(Payload, Bytes, M))
    return FutexFault::WrongSize;
  bool Shared = M.Flags & FutexShared;
  R.Word = {M.Address, Shared};
  R.Target = {M.Target, Shared};
  R.Token = M.Token;
  R.Count = M.Count;
  R.Moves = M.Moves;
  R.Expected = M.Expected;
  R.Compare = M.Flags & FutexCompare;
  return firstOf(checkWord(M.Address), checkWord(M.Target),
                 checkFlags(M.Flags, FutexShared | FutexCompare), checkCount(M.Count),
                 checkCount(M.Moves));
}

FutexFault decodeCancel(const void *Payload, uint32_t Bytes, uint32_t Threads, FutexRequest &R) {
  FutexCancelMessage M;
  if (!read(Payload, Bytes, M))
    return FutexFault::WrongSize;
  R.Token = M.Token;
  R.Thread = M.Thread;
  return firstOf(checkPad(M.Pad), checkThread(M.Thread, Threads));
}

} // namespace

const char *describe(FutexFault F) {
  switch (F) {
  case FutexFault::None:
    return "no fault";
  case FutexFault::NotFutex:
    return "not a futex message";
  case FutexFault::WrongSize:
    return "payload size does not match its type";
  case FutexFault::BadNode:
    return "sender is not a node of the program";
  case FutexFault::Misaligned:
    return "futex word not 4-byte aligned";
  case FutexFault::AddressOutOfRange:
    return "futex word address null or beyond user space";
  case FutexFault::UnknownFlags:
    return "unknown futex flags";
  case FutexFault::NonzeroPad:
    return "nonzero padding";
  case FutexFault::NoBits:
    return "empty futex bitset";
  case FutexFault::ThreadOutOfRange:
    return "thread index beyond the program's threads";
  case FutexFault::CountOutOfRange:
    return "count out of range";
  case FutexFault::ResultOutOfRange:
    return "result neither a count nor an errno";
  }
  return "unknown futex fault";
}

FutexFault decodeFutexRequest(MessageType Type, const void *Payload, uint32_t Bytes, int From,
                              int Nodes, uint32_t Threads, FutexRequest &R) {
  R = FutexRequest{};
  R.Type = Type;
  if (From < 0 || From >= Nodes || Nodes > MaxNodes)
    return FutexFault::BadNode;
  R.From = uint8_t(From);
  switch (Type) {
  case MessageType::FutexWait:
    return decodeWait(Payload, Bytes, Threads, R);
  case MessageType::FutexWake:
    return decodeWake(Payload, Bytes, R);
  case MessageType::FutexRequeue:
    return decodeRequeue(Payload, Bytes, R);
  case MessageType::FutexCancel:
    return decodeCancel(Payload, Bytes, Threads, R);
  default:
    return FutexFault::NotFutex;
  }
}

uint64_t FutexAnswer::tokenAt(uint32_t I) const {
  uint64_t T;
  __builtin_memcpy(&T, Tokens + uint64_t(I) * sizeof T, sizeof T);
  return T;
}

static FutexFault decodeWoken(const void *Payload, uint32_t Bytes, uint32_t Threads,
                              FutexAnswer &A) {
  FutexWokenMessage M;
  if (Bytes < sizeof M)
    return FutexFault::WrongSize;
  __builtin_memcpy(&M, Payload, sizeof M);
  if (M.Pad)
    return FutexFault::NonzeroPad;
  if (!M.Count || M.Count > Threads)
    return FutexFault::CountOutOfRange;
  if (Bytes != sizeof M + uint64_t(M.Count) * sizeof(uint64_t))
    return FutexFault::WrongSize;
  A.Count = M.Count;
  A.Tokens = static_cast<const uint8_t *>(Payload) + sizeof M;
  return FutexFault::None;
}

static FutexFault decodeResult(const void *Payload, uint32_t Bytes, uint32_t Threads,
                               FutexAnswer &A) {
  FutexResultMessage M;
  if (!read(Payload, Bytes, M))
    return FutexFault::WrongSize;
  A.Token = M.Token;
  A.Result = M.Result;
  // No more woke or moved than there are threads.
  bool Count = M.Result >= 0 && M.Result <= int64_t(Threads);
  return Count || sys::failed(M.Result) ? FutexFault::None : FutexFault::ResultOutOfRange;
}

FutexFault decodeFutexAnswer(MessageType Type, const void *Payload, uint32_t Bytes,
                             uint32_t Threads, FutexAnswer &A) {
  A = FutexAnswer{};
  A.Type = Type;
  switch (Type) {
  case MessageType::FutexWoken:
    return decodeWoken(Payload, Bytes, Threads, A);
  case MessageType::FutexResult:
    return decodeResult(Payload, Bytes, Threads, A);
  default:
    return FutexFault::NotFutex;
  }
}

static FutexReply answer(int64_t Result) { return {true, Result}; }

static int64_t refusal(FutexError E) { return E == FutexError::None ? 0 : -sys::Einval; }

FutexReply serveFutex(FutexQueues &Q, const FutexRequest &R, uint32_t WordValue,
                      FutexWoken &Woken) {
  switch (R.Type) {
  case MessageType::FutexWait: {
    if (WordValue != R.Expected)
      return answer(-sys::Eagain);
    FutexError E = Q.wait(R.Word, R.Thread, R.From, R.Token, R.Bits);
    return E == FutexError::None ? FutexReply{false, 0} : answer(refusal(E));
  }
  case MessageType::FutexWake: {
    FutexError E = Q.wake(R.Word, R.Count, R.Bits, Woken);
    return answer(E == FutexError::None ? Woken.count() : refusal(E));
  }
  case MessageType::FutexRequeue: {
    if (R.Compare && WordValue != R.Expected)
      return answer(-sys::Eagain);
    FutexError E = Q.requeue(R.Word, R.Count, R.Target, R.Moves, Woken);
    return answer(E == FutexError::None ? Woken.count() + Woken.Requeued : refusal(E));
  }
  case MessageType::FutexCancel:
    switch (Q.cancel(R.Thread, R.Token)) {
    case FutexLeave::WasQueued:
      return answer(FutexCancelLeft);
    case FutexLeave::NotWaiting:
      return answer(FutexCancelWoken);
    case FutexLeave::Refused:
      break;
    }
    return answer(-sys::Einval);
  default:
    return answer(-sys::Einval);
  }
}

} // namespace popcorn
