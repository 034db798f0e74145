//===- Message.h - What nodes say to each other -----------------*- C++ -*-===//
//
// One message is a header and a payload of Header.Bytes bytes.  A link
// starts with authentication (Authentication.h); a node started by
// popcorn-node then receives the executable (Image).  Home greets the node
// (Hello), which answers Ready or NodeError.  A thread moves away from
// home with Migrate (its rewritten registers and the used part of its
// native stack); while it is away the remote node asks home for pages
// (PageRequest -> PageRun or PageMissing) and runs the system calls that
// need home's files and identity there (Syscall -> SyscallResult; Unmap,
// unanswered); it comes back with ReturnHome followed by every page it
// wrote (PageData, a run of pages each; PageSet, pages apart) and End.
// Exit ends the program with a status.
// With POPCORN_TRACE a node sends its trace events (TraceEvents, Trace.h)
// after its pages (before End) when it returns home, and before Exit.
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
  // Home -> a node home reaches only by its link (tcp:, ssh:), at any
  // moment while the thread is there: popcorn-ctl's move, the destination
  // (an int32_t).  It may come between any two messages (Channel.h).
  Steer,
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
  uint32_t Pad;
  uint64_t SignalMask;     // the thread's
  uint64_t PendingSignals; // raised on the node while blocked there
  fenv_t FloatEnvironment; // the thread's, as in MigrateMessage
  SetjmpFrames Setjmps;    // likewise
};

struct ExitMessage {
  int32_t Status;
};

} // namespace popcorn

#endif
