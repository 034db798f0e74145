//===- Message.h - What nodes say to each other -----------------*- C++ -*-===//
//
// One message is a header and a payload of Header.Bytes bytes.  A link
// starts with authentication (Authentication.h); a node started by
// popcorn-node then receives the executable (Image).  Home greets the node
// (Hello), which answers Ready, NodeError or AddressTaken.  A thread moves away from
// home with Migrate (its rewritten registers and the used part of its
// native stack); while it is away the remote node asks home for pages
// (PageRequest -> PageRun or PageMissing) and runs the system calls that
// need home's files and identity there (Syscall -> SyscallResult; Unmap,
// unanswered); it comes back with ReturnHome followed by every page it
// wrote (PageData, a run of pages each; PageSet, pages apart) and End.
// Exit ends the program with a status.  The coherence protocol's
// messages (PageAsk to PageRecalled) keep one memory over nodes whose
// threads run at the same time (coherence/PageDirectory.h).
// With POPCORN_TRACE a node sends its trace events (TraceEvents, Trace.h)
// after its pages (before End) when it returns home, and before Exit.
// A thread's futex calls meet at home, which queues the waiters of every
// node (FutexWait, FutexWake, FutexRequeue, FutexCancel -> FutexResult;
// FutexWoken to each node whose waiters a wake took).
//
// Every payload is checked against its type's size before use.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_MESSAGE_H
#define POPCORN_RUNTIME_MESSAGE_H

#include "RegisterSet.h"
#include "support/AddressMap.h"
#include <fenv.h>
#include "Rewrite.h"
#include "SetjmpFrames.h"

namespace popcorn {

enum class MessageType : uint32_t {
  Hello = 1,
  Migrate,
  PageRequest,
  // Node -> home after ReturnHome, or before a call that protects them: a
  // PageRunMessage and the bytes of the pages it wrote.
  PageData,
  PageMissing,
  Syscall,
  SyscallResult,
  ReturnHome,
  End,
  Exit,
  // Before anything else on a link (Authentication.h).
  AuthChallenge,
  AuthResponse,
  AuthProof,
  // Node -> home: greeted and ready for a thread.
  Ready,
  // Home -> popcorn-node: the executable to run as a node.
  Image,
  // Node -> home: why it cannot serve (text).
  NodeError,
  // Home -> node: pages asked for by PageRequest.
  PageRun,
  // Home -> node, before Migrate: addresses of pages it holds from earlier
  // trips whose content has changed (RetainedPages.h).
  Forget,
  // Node -> home: its trace events (Trace.h).
  TraceEvents,
  // Home -> node, before Migrate: the program's action for each signal,
  // when they changed since the node last had them (SignalState.h).
  SignalActions,
  // Node -> home: munmap of a range of the arena, which cannot fail
  // there; no answer (an UnmapMessage).
  Unmap,
  // Home -> node, before Migrate, no payload: every page it holds from
  // earlier trips may have changed (it held more than home checks).
  ForgetAll,
  // Node -> home: the bytes the thread changed in a page shared with
  // other processes (PageAccess.h), a PageDiffMessage.
  PageDiff,
  // Node -> home, where PageData goes: pages written apart from each
  // other, a PageSetMessage.
  PageSet,
  // Node -> home: the thread's signal mask, changed by the program there
  // (a uint64_t); no answer (SignalState.h).
  ThreadMask,
  // The coherence protocol (coherence/PageDirectory.h), one page each.
  // Node -> home: a fault wants the page (a PageAskMessage).
  PageAsk,
  // Home -> node: the page, read-only or writable (a PageGrantMessage,
  // then the page's bytes if its Data is GrantFromHome).
  PageGrant,
  // Home -> node: no mapping holds the page, or not with the access
  // asked for (a PageAddressMessage); the fault is the program's.
  PageDenied,
  // Home -> node: drop the page, whatever the node holds (a
  // PageAddressMessage); answered by PageInvalidated.
  PageInvalidate,
  // Home -> node: the page the node holds writable, back to home (a
  // PageRecallMessage); answered by PageRecalled.
  PageRecall,
  // Node -> home: the page is dropped (a PageAddressMessage).
  PageInvalidated,
  // Node -> home: a PageAddressMessage, then the page's bytes as the
  // node wrote them; the node keeps it read-only or not, as recalled.
  PageRecalled,
  // Node -> home: a thread waits on a futex word (FutexWaitMessage).  No
  // answer while it is queued: FutexWoken when a wake takes it, or a
  // FutexResult at once (-EAGAIN) when the word holds another value.
  FutexWait,
  // Node -> home: FUTEX_WAKE or FUTEX_WAKE_BITSET (FutexWakeMessage);
  // answered FutexResult, how many woke.
  FutexWake,
  // Node -> home: FUTEX_REQUEUE or FUTEX_CMP_REQUEUE
  // (FutexRequeueMessage); answered FutexResult, how many woke or moved.
  FutexRequeue,
  // Node -> home: a waiting thread leaves its wait, for a timeout or a
  // signal (FutexCancelMessage); answered FutexResult, whether a wake
  // took it first.
  FutexCancel,
  // Home -> node: the node's waiters a wake took, all of them in one
  // message (FutexWokenMessage).
  FutexWoken,
  // Home -> node: the answer to one of its futex requests
  // (FutexResultMessage).
  FutexResult,
  // Home -> a node home reaches only by its link (tcp:, ssh:), at any
  // moment while the thread is there: popcorn-ctl's move, the destination
  // (an int32_t).  It may come between any two messages (Channel.h).
  Steer,
  // popcorn-node -> home, last on the link of a node it ran that was
  // killed by a signal (a NodeEndedMessage): home, which has no process
  // of the node's to wait for, ends by that signal as for one of its own.
  NodeEnded,
  // Node -> home, in place of Ready: an address home's memory needs is
  // taken in this process by something placed at random (qemu-user's own
  // stack, the vDSO), text as NodeError's.  Another process of the node
  // will have it free: home starts one.
  AddressTaken,
  // While the program's other threads are held at home (a program of
  // several threads: signals/HeldThreads.h), node -> home: the thread's
  // written pages went home and none stays here, so home's other threads
  // may run until Hold.  For a call that may wait on them.  A
  // ReleaseMessage, then the thread's stack from there to its top: the
  // others may use what its frames hold (musl's condition variables keep
  // their waiters there), at the same addresses home.
  Release,
  // Node -> home, no payload: hold the other threads again; answered by
  // Held once they are, with the same part of the stack as home has it.
  Hold,
  Held,
  // Node -> home: the thread ends (musl's pthread_exit, a
  // ThreadExitMessage), after Release: its home thread ends it there.
  ThreadExit,
  // Home -> node, in place of a forwarded call's result: the thread's home
  // thread ended in the call (pthread_cancel, a cancellation point's), and
  // so does the thread; no payload.
  ThreadEnded,
};

struct MessageHeader {
  MessageType Type;
  uint32_t Bytes;
};

inline constexpr unsigned MaxSharedRanges = 8;
inline constexpr int MaxNodes = 8;

inline constexpr unsigned NonceBytes = 16;

struct AuthChallengeMessage {
  uint8_t Nonce[NonceBytes];
};

struct AuthResponseMessage {
  uint8_t Nonce[NonceBytes];
  uint8_t Mac[32];
};

struct AuthProofMessage {
  uint8_t Mac[32];
};

// Home -> popcorn-node, followed by the image's bytes.
struct ImageMessage {
  uint16_t Machine;
  uint16_t Node;
  uint32_t Pad;
};

// Home -> a node it started: the node table and the ranges whose pages
// are home's.
struct HelloMessage {
  uint32_t HomePid;
  uint16_t HomeMachine;
  uint16_t Ranges;
  AddressRange Shared[MaxSharedRanges];
  uint16_t NodeCount;
  uint16_t NodeMachines[MaxNodes];
  uint32_t TimeoutMs;   // POPCORN_TIMEOUT
  uint32_t ChildOfHome; // home started it (else popcorn-node did)
  uint8_t Trace; // record trace events and send them home (Trace.h)
  // The thread's native stack at home, up to its base frame's CFA: the
  // node runs the thread there too if it can reserve the range.
  StackRegion HomeStack;
};

// Node -> home: ready for the thread.
struct ReadyMessage {
  uint32_t StackAtHome; // the thread runs at HomeStack's addresses here
};

// Home -> node: continue the thread with Registers on Away (home's stack
// region, if the node said StackAtHome, else a region of the arena), whose
// bytes from Registers.Sp to Away.High follow.  Home is where it must land
// when it comes back.
struct MigrateMessage {
  RegisterSet Registers;
  StackRegion Away, Home;
  uint64_t SignalMask; // the thread's
  // Its rounding mode and exception flags, in the encoding both libcs
  // share (libc-patches: aarch64's fenv_t on x86-64 too).
  fenv_t FloatEnvironment;
  SetjmpFrames Setjmps; // the thread's, on the stack it arrives with
  // The program's other threads are held at home while it is away: it
  // releases them around a call that may wait (Release, Hold).
  uint8_t OthersHeld;
  uint8_t Pad[3];
  int32_t Tid; // the thread's at home: the trace's track
};

struct ReleaseMessage {
  uint64_t StackLow;
  // Home asked for it (YieldRequest): the thread did not wait in a call,
  // so home lets the others run a while before the hold.
  uint64_t Yielding;
};

struct ThreadExitMessage {
  uint64_t Result; // pthread_exit's argument
};

// The most pages one message carries, either way: a node asks for the one
// that faulted and the missing ones after it, since a program that reads a
// page usually reads the next (one round trip instead of one per page),
// and sends home the pages it wrote in runs of consecutive ones.  Measured
// here, a Unix socket carries 1.75 GB/s in 4 KiB writes and 2.7 in 256 KiB
// ones, but the per-message work at both ends (a header, a reply, a
// process_vm_writev) made write-back a page at a time 0.39 GB/s; in runs
// of up to 64 pages it is 0.9-1.4.
inline constexpr uint32_t MaxPagesPerRun = 64;

// Node -> home: Count pages from Address.  Home answers PageRun with the
// first Pages (>= 1) of them it has, followed by their bytes, or
// PageMissing if it has not the first.
struct PageRequestMessage {
  uint64_t Address;
  uint32_t Count;
  uint32_t Pad;
};

// PageRun and PageData: Pages pages from Address, whose bytes follow.
struct PageRunMessage {
  uint64_t Address;
  uint32_t Pages;
  uint32_t Flags; // PageRun: PageRunReadOnly or 0; PageData: 0
};
// PageSet: Count pages (1 to MaxPagesPerRun), each at its own address:
// Count addresses follow, then the pages' bytes in the same order.  A
// thread that wrote pages apart from each other sent a PageData each,
// and the work per message at both ends (a header, two or three system
// calls) made that 7-9 us a page (bench/hashtab.c).
struct PageSetMessage {
  uint32_t Count;
  uint32_t Pad;
};

// The program may read the run's pages and not write them.
inline constexpr uint32_t PageRunReadOnly = 1;
// The run's pages are shared with other processes (PageAccess.h).
inline constexpr uint32_t PageRunMapShared = 2;

// PageDiff: Segments runs of changed bytes of the page at Address follow,
// each a DiffSegment and its bytes.  Only those: another process may have
// written the rest of the page meanwhile.
struct PageDiffMessage {
  uint64_t Address;
  uint32_t Segments;
  uint32_t Pad;
};
struct DiffSegment {
  uint16_t Offset, Bytes;
};
// The most a page's diff takes: no more bytes than the page's, no more
// segments than every other byte.
inline constexpr uint32_t MaxDiffBytes =
    sizeof(PageDiffMessage) + PageBytes + PageBytes / 2 * sizeof(DiffSegment);

inline constexpr unsigned SyscallArguments = 6;

// Node -> home: run portable call Call with Args; pointer arguments point
// into the data that follows (offsets from its start).
struct SyscallMessage {
  uint32_t Call;
  uint32_t InBytes;
  int64_t Args[SyscallArguments];
  uint64_t Blocked; // the thread's signal mask, for a call that may wait
};

// A struct msghdr in a forwarded call's data (sendmsg, recvmsg): these
// sizes, then its name, its control data and its iovecs' bytes.  recvmsg's
// goes with the room the node has for each, and comes back with what the
// call wrote: the name's full length, msg_flags, the control data's length
// and the bytes received.
struct MsghdrSizes {
  uint32_t NameBytes;
  int32_t Flags;
  uint64_t ControlBytes, DataBytes;
};

struct UnmapMessage {
  uint64_t Address, Bytes;
};

// Home -> node: the call's result and OutBytes bytes of output data.
struct SyscallResultMessage {
  int64_t Result;
  uint64_t OutBytes;
  // The program's signals that arrived at home while the call ran: the
  // node raises them as the call returns (SignalState.h).
  uint64_t Signals;
};

// Node -> home: continue at home with Registers; the stack bytes from
// Registers.Sp to the home region's top follow.  Next is where the thread
// goes from home (0: it stays there).
struct ReturnHomeMessage {
  RegisterSet Registers;
  uint32_t Next;
  // The move to Next is popcorn_migrate's, not a schedule's: if home
  // cannot send the thread on, the call returns -1 with the reason.
  uint32_t Asked;
  uint64_t SignalMask;     // the thread's
  uint64_t PendingSignals; // raised on the node while blocked there
  fenv_t FloatEnvironment; // the thread's, as in MigrateMessage
  SetjmpFrames Setjmps;    // likewise
};

// The coherence protocol's messages (coherence/Messages.h checks them).
// Access in PageAsk and PageGrant: what the page is wanted for.  An
// atomic update asks for PageAccessWrite.
inline constexpr uint32_t PageAccessRead = 0;
inline constexpr uint32_t PageAccessWrite = 1;
// Data in PageGrant: where the node finds the page's bytes.
inline constexpr uint32_t GrantHeld = 0;     // its own copy (an upgrade)
inline constexpr uint32_t GrantZero = 1;     // zeros: never written since mapped
inline constexpr uint32_t GrantFromHome = 2; // the PageBytes after the message
// Mode in PageRecall: what the owner keeps.
inline constexpr uint32_t RecallDowngrade = 0; // the page, read-only
inline constexpr uint32_t RecallInvalidate = 1; // nothing

struct PageAskMessage {
  uint64_t Address;
  uint32_t Access;
  uint32_t Pad;
};

struct PageGrantMessage {
  uint64_t Address;
  uint32_t Access;
  uint32_t Data;
};

struct PageRecallMessage {
  uint64_t Address;
  uint32_t Mode;
  uint32_t Pad;
};

// PageDenied, PageInvalidate, PageInvalidated, PageRecalled.
struct PageAddressMessage {
  uint64_t Address;
};

// A futex word named without FUTEX_PRIVATE_FLAG: the kernel keys such
// words apart from private ones, and home does too (FutexQueues.h).
inline constexpr uint32_t FutexShared = 1;
// FUTEX_CMP_REQUEUE: home requeues only if the word holds Expected.
inline constexpr uint32_t FutexCompare = 2;

// FutexWait: thread Thread (its index in home's table of threads) waits
// on the 4-byte word at Address, if it holds Expected, for a wake whose
// bitset meets Bits.  Token names the wait on its node and comes back in
// FutexWoken.  No timeout travels: the node keeps it, on its own clock,
// and ends the wait with FutexCancel, as it does for a signal.
struct FutexWaitMessage {
  uint64_t Address;
  uint64_t Token;
  uint32_t Thread;
  uint32_t Expected;
  uint32_t Bits;
  uint32_t Flags; // FutexShared
};

// FutexWake: wakes up to Count waiters of the word at Address whose
// bitset meets Bits.  Token names the waker, for the answer.
struct FutexWakeMessage {
  uint64_t Address;
  uint64_t Token;
  uint32_t Count;
  uint32_t Bits;
  uint32_t Flags; // FutexShared
  uint32_t Pad;
};

// FutexRequeue: wakes up to Count waiters of the word at Address and
// moves up to Moves more to the word at Target.  Counts are at most
// INT32_MAX: the kernel refuses larger (negative) ones.
struct FutexRequeueMessage {
  uint64_t Address, Target;
  uint64_t Token;
  uint32_t Count, Moves;
  uint32_t Expected; // with FutexCompare
  uint32_t Flags;    // FutexShared (both words), FutexCompare
};

// FutexCancel: thread Thread leaves the wait it entered with Token.
struct FutexCancelMessage {
  uint64_t Token;
  uint32_t Thread;
  uint32_t Pad;
};

// FutexWoken: Count tokens follow (uint64_t each), 1 to as many as the
// program may have threads, those of the waits the wake ended.
struct FutexWokenMessage {
  uint32_t Count;
  uint32_t Pad;
};

// FutexResult: the result of the request Token named, as the system call
// returns it (a count or -errno); for FutexCancel, one of the two below.
struct FutexResultMessage {
  uint64_t Token;
  int64_t Result;
};
// The thread was still queued and is no longer: its call times out or is
// interrupted.
inline constexpr int64_t FutexCancelLeft = 0;
// A wake took it first, whose FutexWoken came before this answer: its
// call returns 0, as the kernel's does when a wake beats the timeout.
inline constexpr int64_t FutexCancelWoken = 1;

struct ExitMessage {
  int32_t Status;
};

struct NodeEndedMessage {
  int32_t WaitStatus; // as waitpid gave it
};

} // namespace popcorn

#endif
