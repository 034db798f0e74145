//===- SystemCalls.h - libc's system calls on every node --------*- C++ -*-===//
//
// musl makes every system call through __popcorn_syscall
// (libc-patches/common/0002-node-hooks.patch).  At home only mapping calls
// change (memory/AddressSpace.h); on a remote node each call runs where its
// link/SyscallTable.h row says, its data carried in messages (CallData.h).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SYSTEMCALLS_H
#define POPCORN_RUNTIME_SYSTEMCALLS_H

#include "link/Channel.h"
#include "signals/SignalState.h"

namespace popcorn {

/// Bytes of data one forwarded call carries at most each way; larger reads
/// and writes are cut short, as the kernel may do.
inline constexpr uint64_t SyscallDataBytes = 1 << 20;
/// NodeState::SyscallBuffer's size: a call's input, output and reply.
inline constexpr uint64_t SyscallBufferBytes = 4 * SyscallDataBytes;

/// Home: runs the Syscall message whose payload of Bytes is next on Link,
/// for a node of ISA Machine, and answers.  False if the link failed or
/// the message is malformed.
bool serveSyscall(Channel &Link, uint16_t Machine, uint32_t Bytes);

/// Node: a handler with SA_RESETHAND that ran here reset its action in
/// this node's kernel (or ProgramFaultAction, SIGSEGV's) only; home's,
/// which the program's sigaction reads and the next departure sends,
/// learns of it.  Before the program's sigaction and as the thread leaves.
void settleResetActions();

/// Node: the program's call Number on A, run where its row of
/// link/SyscallTable.h says (ForwardCalls.cpp).
long remoteSyscall(long Number, const long *A);

/// Node, while the program's other threads are held at home: the pages
/// the thread wrote go home, none stays, and home lets them run
/// (signals/HeldThreads.h), with the thread's stack from StackLow up;
/// Yielding, for a while, at home's request.
void releaseHomeThreads(uint64_t StackLow, bool Yielding);

/// Node: home holds its threads again, and the thread takes back its stack
/// from StackLow up as home has it.
void holdHomeThreads(uint64_t StackLow);

/// Node, in the handler of home's YieldRequest: the thread, stopped at
/// InterruptedSp in the program's code, lets home's threads run a while.
void yieldToHome(uint64_t InterruptedSp);

} // namespace popcorn

extern "C" long __popcorn_syscall(long N, long A, long B, long C, long D, long E, long F);

#endif
