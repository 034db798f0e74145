//===- RemoteNode.cpp - A process that runs a thread away from home -------===//
#include "nodes/RemoteNode.h"
#include "memory/AddressSpace.h"
#include "migration/LongJump.h"
#include "memory/NodeMappings.h"
#include "state/NodeState.h"
#include "support/ProcessMaps.h"
#include "support/Report.h"
#include "signals/Steering.h"
#include "support/Syscall.h"
#include "syscalls/SystemCalls.h"
#include "migration/Thread.h"
#include "trace/Trace.h"
#include <elf.h>
#include <signal.h>

using namespace popcorn;

extern "C" {
void popcorn_signal_return(void);
}

namespace popcorn {
namespace {
constexpr uint64_t RuntimeStackBytes = 256 * 1024;
constexpr uint64_t SignalStackBytes = 64 * 1024;
constexpr uint32_t MaxFrames = 1 << 16;
// Home's stack region is at most RLIMIT_STACK or 8 MiB (Thread.cpp).
constexpr uint64_t MaxStackBytes = 64 << 20;
constexpr uint64_t ListCapacity = uint64_t(1) << 22; // pages: 16 GiB
constexpr uint64_t MaxKeptRuns = 16384; // runs of pages kept between trips (keepArenaPages)
// Shared pages written between two system calls that are sent home as
// diffs; past these (16 MiB), whole.
constexpr uint32_t MaxTwins = 4096;

constexpr uint16_t Here = sys::Here;

[[noreturn]] void fail(const char *What) {
  NodeState &N = node();
  Line() << "popcorn: node " << uint64_t(N.Self) << ": " << What;
  if (!N.ReadySent) { // home is waiting for an answer: this is it
    uint32_t Length = 0;
    while (What[Length])
      Length++;
    N.HomeLink.send(MessageType::NodeError, What, Length);
  }
  sys::exitGroup(1);
}

int rangeOf(uint64_t A) {
  NodeState &N = node();
  for (uint32_t R = 0; R < N.SharedCount; R++)
    if (N.Shared[R].contains(A))
      return int(R);
  return -1;
}

struct PageBit {
  uint8_t *Byte;
  uint8_t Mask;
};

PageBit bitOf(uint8_t *const *Bits, int R, uint64_t A) {
  uint64_t I = (A - node().Shared[R].Low) / PageBytes;
  return {&Bits[R][I / 8], uint8_t(1u << (I % 8))};
}

void setBit(uint8_t *const *Bits, int R, uint64_t A, bool Set) {
  PageBit P = bitOf(Bits, R, A);
  *P.Byte = Set ? uint8_t(*P.Byte | P.Mask) : uint8_t(*P.Byte & ~P.Mask);
}

bool hasBit(uint8_t *const *Bits, int R, uint64_t A) {
  PageBit P = bitOf(Bits, R, A);
  return *P.Byte & P.Mask;
}

bool isPresent(int R, uint64_t A) { return hasBit(node().PresentBits, R, A); }
bool isFresh(int R, uint64_t A) { return hasBit(node().FreshBits, R, A); }
bool isReadOnly(int R, uint64_t A) { return hasBit(node().ReadOnlyBits, R, A); }
bool isMapShared(int R, uint64_t A) { return hasBit(node().MapSharedBits, R, A); }

// The stream a fault at A goes on with, or else a new one at A in place
// of the least recently used.  A stream goes on where its last request
// ended or a little further (no more than that request's length): copies
// and memset touch a range's end before its middle, and a loop over a
// matrix's rows may skip a few pages.
FetchStream &streamAt(uint64_t A) {
  NodeState &N = node();
  FetchStream *Oldest = &N.Streams[0];
  for (FetchStream &S : N.Streams) {
    if (S.Window && A >= S.Next && A - S.Next < uint64_t(S.Window) * PageBytes) {
      S.LastUsed = ++N.StreamFaults;
      return S;
    }
    if (S.LastUsed < Oldest->LastUsed)
      Oldest = &S;
  }
  *Oldest = FetchStream{A, ++N.StreamFaults, 0, false};
  return *Oldest;
}

// How many pages from A, which is missing, to ask for.  Like a file
// system's read-ahead: one, unless the thread goes on where a stream's
// last request ended, which doubles its window up to MaxPagesPerRun (a
// thread that jumps about must not wait for pages it skips).  Only
// missing pages of A's range, from A on.
uint32_t pagesToAsk(int R, uint64_t A, FetchStream &S) {
  NodeState &N = node();
  S.Window = S.Window ? S.Window * 2 : 1;
  if (S.Window > MaxPagesPerRun)
    S.Window = MaxPagesPerRun;
  const AddressRange &Range = N.Shared[R];
  uint32_t Count = 1;
  while (Count < S.Window && A + Count * PageBytes < Range.High &&
         !isPresent(R, A + Count * PageBytes))
    Count++;
  return Count;
}

void compactPresentList();
void forgetAllKept(bool OnlyClean = false);
bool roomForPages(uint64_t Count);

// A page a fetch may bring along with another: missing here, and neither
// one the node makes itself (fresh) nor one the program unmapped here.
bool mayBringAlong(int R, uint64_t P) {
  return !isPresent(R, P) && !isFresh(R, P) && !inKeptRange(P);
}

// Blocks of address space in which a thread that jumps about (a hash
// table, a tree) is taken to use most pages once it used a few: when a
// fault starts no stream and BlockUseHint pages of A's block are here or
// were (HadBits), the block's missing pages next to A come with it.  One
// request of 32 pages costs a single page's fault and 1.3-3 us a page
// here, against 18 us for each page asked for alone: bench/hashtab.c,
// reading and writing its 128 MiB table at random while it moves every
// 100 ms, asks 11,000 times rather than 50,000 and takes 0.76x the time.
// More than one page in eight: a thread that reads every 8th page brings
// none it does not read (tests/migrate/scattered.c).
constexpr uint64_t BlockPages = 32;
constexpr uint32_t BlockUseHint = 5;

// Widens the request [Start, Start + Count pages), which starts no stream
// at missing page A, to A's block when the block is in use.  Not below A
// for a write: only the run's first pages can be writable.
void widenToBlock(int R, uint64_t A, bool Write, uint64_t &Start, uint32_t &Count) {
  NodeState &N = node();
  const AddressRange &Range = N.Shared[R];
  uint64_t Low = A - (A - Range.Low) % (BlockPages * PageBytes);
  uint64_t High = Low + BlockPages * PageBytes < Range.High ? Low + BlockPages * PageBytes
                                                             : Range.High;
  uint32_t Used = 0;
  for (uint64_t P = Low; P < High; P += PageBytes)
    Used += isPresent(R, P) || hasBit(N.HadBits, R, P);
  if (Used < BlockUseHint || !roomForPages(BlockPages))
    return;
  uint64_t From = A, To = A + uint64_t(Count) * PageBytes;
  while (!Write && From > Low && mayBringAlong(R, From - PageBytes))
    From -= PageBytes;
  while (To < High && mayBringAlong(R, To))
    To += PageBytes;
  Start = From;
  Count = uint32_t((To - From) / PageBytes);
}

// Brings Count pages from A here; returns how many home had (the first of
// them at least), 0 if not even the first.  The first Writable of them
// stay writable, the others are read-only; all are if the program may
// not write them.  Flags: home's PageRunReadOnly and PageRunMapShared.
uint32_t fetch(uint64_t A, uint32_t Count, uint32_t &Writable, uint32_t &Flags) {
  NodeState &N = node();
  TraceSpan Fault(TraceKind::PageFault);
  MessageHeader H;
  PageRequestMessage Request = {A, Count, 0};
  PageRunMessage Run;
  if (!N.HomeLink.send(MessageType::PageRequest, &Request, sizeof Request) ||
      !N.HomeLink.receiveHeader(H, N.HomeLink.TimeoutMs))
    lostHome();
  if (H.Type == MessageType::PageMissing) {
    if (!N.HomeLink.skip(H.Bytes))
      lostHome();
    return 0;
  }
  if (H.Type != MessageType::PageRun || H.Bytes < sizeof Run ||
      !N.HomeLink.receivePayload(&Run, sizeof Run) || Run.Address != A || !Run.Pages ||
      Run.Pages > Count || H.Bytes - sizeof Run != uint64_t(Run.Pages) * PageBytes ||
      (Run.Flags & ~(PageRunReadOnly | PageRunMapShared)))
    lostHome();
  Flags = Run.Flags;
  if (Flags & PageRunReadOnly)
    Writable = 0;
  uint64_t Bytes = uint64_t(Run.Pages) * PageBytes;
  uint64_t WritableBytes = uint64_t(Writable < Run.Pages ? Writable : Run.Pages) * PageBytes;
  // Past the kernel's limit of mappings (vm.max_map_count), pages far
  // apart give way to this run.
  if (sys::call6(sys::Mprotect, long(A), long(Bytes), sys::ProtReadWrite) != 0) {
    forgetAllKept(true);
    compactPresentList();
    if (sys::call6(sys::Mprotect, long(A), long(Bytes), sys::ProtReadWrite) != 0)
      fail("the kernel refuses to map one more page here (its limit of mappings, "
           "vm.max_map_count?)");
  }
  if (!N.HomeLink.receivePayload(reinterpret_cast<void *>(A), Bytes))
    lostHome();
  if (WritableBytes < Bytes)
    sys::call6(sys::Mprotect, long(A + WritableBytes), long(Bytes - WritableBytes),
               sys::ProtRead);
  N.PagesFetched += Run.Pages;
  Fault.finish(A);
  return Run.Pages;
}

// The interrupted program counter in the kernel's ucontext.
uint64_t faultPc(const void *Context) {
#if defined(__x86_64__)
  constexpr unsigned PcOffset = 168;
#else
  constexpr unsigned PcOffset = 440;
#endif
  return *reinterpret_cast<const uint64_t *>(static_cast<const uint8_t *>(Context) + PcOffset);
}

// Whether the fault was a write, from the kernel's ucontext: x86-64's
// error code (REG_ERR, bit 1), aarch64's ESR record among the signal
// frame's extra records (WnR, bit 6).  False when it cannot tell (qemu-user
// may write no ESR record): the page is then mapped read-only, and the
// write faults once more.
bool faultIsWrite(const void *Context) {
  auto *Bytes = static_cast<const uint8_t *>(Context);
#if defined(__x86_64__)
  constexpr unsigned ErrOffset = 192;
  return *reinterpret_cast<const uint64_t *>(Bytes + ErrOffset) & 2;
#else
  constexpr unsigned ReservedOffset = 464, ReservedBytes = 4096;
  constexpr uint32_t EsrMagic = 0x45535201;
  for (unsigned At = 0; At + 8 <= ReservedBytes;) {
    uint32_t Magic, Size;
    __builtin_memcpy(&Magic, Bytes + ReservedOffset + At, 4);
    __builtin_memcpy(&Size, Bytes + ReservedOffset + At + 4, 4);
    if (!Magic || Size < 8 || At + Size > ReservedBytes)
      return false;
    if (Magic == EsrMagic && Size >= 16) {
      uint64_t Esr;
      __builtin_memcpy(&Esr, Bytes + ReservedOffset + At + 8, 8);
      return Esr & (1u << 6);
    }
    At += Size;
  }
  return false;
#endif
}

// Keeps in the dirty list one entry per page still written, where it was
// first written.  A page dropped (unmapped, or its range mapped again) and
// written again has two entries, and one that was only dropped, a stale
// one: malloc maps and unmaps the same ranges all the time.
void compactDirtyList() {
  NodeState &N = node();
  uint64_t Kept = 0;
  for (uint64_t I = 0; I < N.DirtyCount; I++) {
    uint64_t A = N.DirtyList[I];
    int R = rangeOf(A);
    if (R < 0)
      continue;
    PageBit D = bitOf(N.DirtyBits, R, A);
    if (*D.Byte & D.Mask) {
      *D.Byte &= uint8_t(~D.Mask); // a later entry of A is then skipped
      N.DirtyList[Kept++] = A;
    }
  }
  for (uint64_t I = 0; I < Kept; I++) {
    PageBit D = bitOf(N.DirtyBits, rangeOf(N.DirtyList[I]), N.DirtyList[I]);
    *D.Byte |= D.Mask;
  }
  N.DirtyCount = Kept;
}


// Whether the present list has room for Count more pages, once stale
// entries are gone if need be.
bool roomForPages(uint64_t Count) {
  NodeState &N = node();
  if (N.PresentCount + Count > N.ListCapacity)
    compactPresentList();
  return N.PresentCount + Count <= N.ListCapacity;
}

// Page A, here and writable, goes home with the thread.
void noteWritten(int R, uint64_t A) {
  NodeState &N = node();
  if (N.DirtyCount == N.ListCapacity)
    compactDirtyList();
  if (N.DirtyCount == N.ListCapacity)
    fail("more pages written than a thread may take back home");
  PageBit Dirty = bitOf(N.DirtyBits, R, A);
  *Dirty.Byte |= Dirty.Mask;
  N.DirtyList[N.DirtyCount++] = A;
  // Shared with other processes: its bytes as they came, not yet written.
  if (isMapShared(R, A) && N.TwinCount < MaxTwins) {
    __builtin_memcpy(N.Twins + uint64_t(N.TwinCount) * PageBytes,
                     reinterpret_cast<const void *>(A), PageBytes);
    N.TwinAddress[N.TwinCount++] = A;
  }
}

// Page A, here and read-only, becomes writable: it goes home with the
// thread.
void markWritten(int R, uint64_t A) {
  sys::call6(sys::Mprotect, long(A), PageBytes, sys::ProtReadWrite);
  noteWritten(R, A);
}

// A write to page A, here and read-only.  A thread that writes through
// pages it holds in order (a pass over an array it kept from an earlier
// trip, a loop that rewrites what it just read) would take a signal and
// an mprotect at each page's first write: bench/sieve.c moving every
// 100 ms took 30,927 of them, 3% of its time.  So when this write is
// where the last one's run ended, the pages after A that are here and
// read-only become writable with it, in a window that doubles as a
// fetch's does (20 calls for sieve's 30,927 pages), at the cost of
// sending home a few the thread does not write after all.  Not pages
// shared with other processes: each written one needs a twin.
void markWrittenAhead(int R, uint64_t A) {
  NodeState &N = node();
  uint32_t Window = A == N.WriteStreamNext ? N.WriteWindow * 2 : 1;
  N.WriteWindow = Window < MaxPagesPerRun ? Window : MaxPagesPerRun;
  uint64_t High = N.Shared[R].High;
  uint32_t Pages = 1;
  for (uint64_t P = A + PageBytes; Pages < N.WriteWindow && P < High; P += PageBytes, Pages++)
    if (!isPresent(R, P) || hasBit(N.DirtyBits, R, P) || isReadOnly(R, P) || isMapShared(R, P))
      break;
  sys::call6(sys::Mprotect, long(A), long(Pages * PageBytes), sys::ProtReadWrite);
  for (uint32_t I = 0; I < Pages; I++)
    noteWritten(R, A + I * PageBytes);
  N.WriteStreamNext = A + Pages * PageBytes;
}

// Whether page A is here and written (not forgotten since it was).
bool stillWritten(uint64_t A) {
  int R = rangeOf(A);
  if (R < 0)
    return false;
  PageBit Dirty = bitOf(node().DirtyBits, R, A);
  return *Dirty.Byte & Dirty.Mask;
}

// How many of the DirtyList's entries from I on name pages still written
// and consecutive to the first (which is), at most MaxPagesPerRun.
uint32_t writtenRun(uint64_t I) {
  NodeState &N = node();
  uint64_t A = N.DirtyList[I];
  uint32_t Pages = 1;
  while (I + Pages < N.DirtyCount && Pages < MaxPagesPerRun &&
         N.DirtyList[I + Pages] == A + Pages * PageBytes && stillWritten(A + Pages * PageBytes))
    Pages++;
  return Pages;
}

// Up to Count fresh pages from A (fresh, so missing): zero at home, and
// zero here since dropPages reserved them, so they need no message.  They
// become here and written, as home does not know this node has them: it
// will only know once they went back to it.  Costs a fault and an
// mprotect per run rather than a round trip home per request.
void takeFreshPages(int R, uint64_t A, uint32_t Count, FetchStream &Stream) {
  NodeState &N = node();
  uint32_t Pages = 1;
  while (Pages < Count && isFresh(R, A + Pages * PageBytes) &&
         !isPresent(R, A + Pages * PageBytes))
    Pages++;
  sys::call6(sys::Mprotect, long(A), long(Pages * PageBytes), sys::ProtReadWrite);
  for (uint32_t I = 0; I < Pages; I++) {
    uint64_t P = A + I * PageBytes;
    PageBit Present = bitOf(N.PresentBits, R, P), Fresh = bitOf(N.FreshBits, R, P);
    *Present.Byte |= Present.Mask;
    *Fresh.Byte &= uint8_t(~Fresh.Mask);
    N.PresentList[N.PresentCount++] = P;
    noteWritten(R, P);
  }
  Stream.Next = A + Pages * PageBytes;
  Stream.Writes = true;
}

// Page A of shared range R came with the thread: here and written, as if
// fetched and written to.
void takeWrittenPage(int R, uint64_t A) {
  NodeState &N = node();
  if (!isPresent(R, A)) {
    if (!roomForPages(1))
      fail("more pages than a thread may take away from home");
    PageBit Present = bitOf(N.PresentBits, R, A);
    *Present.Byte |= Present.Mask;
    N.PresentList[N.PresentCount++] = A;
  }
  PageBit Dirty = bitOf(N.DirtyBits, R, A);
  if (!(*Dirty.Byte & Dirty.Mask))
    markWritten(R, A);
}

// The program's SIGSEGV, a fault of its own or one it sent itself (raise,
// kill): what home's kernel would do with ProgramFaultAction.  Its handler,
// if it has one, runs here, on this node's signal stack: one address on
// every ISA, and the ucontext is this ISA's, as the handler's code is.
// SIGSEGV itself stays unblocked (the handler's own pages come in through
// it), so the kernel's blocking of it while the handler runs (unless
// SA_NODEFER) is done here: a SIGSEGV the program sends then waits for the
// handler to return, as c-stack's raise after "program error" does.  The
// rest of the handler's mask is blocked until it returns (to the faulting
// instruction) or jumps out.
void deliverProgramFault(siginfo_t *Info, void *Context, bool Sent) {
  NodeState &N = node();
  constexpr uint64_t SaSiginfo = 4, SaNodefer = 0x40000000, SaResethand = 0x80000000;
  constexpr uint64_t SigIgn = 1;
  // Called from a fault inside the handler, this frame lies below the one
  // that called it, on the same stack; a handler left by a longjmp left
  // nothing there.
  uint64_t Here = uint64_t(__builtin_frame_address(0));
  if (Here >= N.ProgramFaultFrame)
    N.ProgramFaultFrame = 0;
  bool Blocked = N.ProgramFaultFrame && !(N.ProgramFaultFlags & SaNodefer);
  KernelSigaction Program = ProgramFaultAction;
  if (Sent && (Blocked || Program.Handler == SigIgn)) {
    N.ProgramFaultPending = Blocked;
    return;
  }
  if (Program.Handler > SigIgn && !Blocked) {
    if (Program.Flags & SaResethand)
      ProgramFaultAction = KernelSigaction{};
    uint64_t Mask = Program.Mask & ~signalBit(SignalFault);
    sys::call6(sys::RtSigprocmask, SIG_BLOCK, long(&Mask), 0, 8);
    uint64_t Outer = N.ProgramFaultFrame, OuterFlags = N.ProgramFaultFlags;
    N.ProgramFaultFrame = Here;
    N.ProgramFaultFlags = Program.Flags;
    N.InFaultHandler--; // the program's code: signals reach it (it may jump out)
    if (Program.Flags & SaSiginfo)
      reinterpret_cast<void (*)(int, siginfo_t *, void *)>(Program.Handler)(SIGSEGV, Info,
                                                                            Context);
    else
      reinterpret_cast<void (*)(int)>(Program.Handler)(SIGSEGV);
    N.InFaultHandler++;
    N.ProgramFaultFrame = Outer;
    N.ProgramFaultFlags = OuterFlags;
    if (N.ProgramFaultPending && !Outer) {
      N.ProgramFaultPending = false;
      sys::call6(sys::Tkill, sys::call6(sys::Gettid, 0), SIGSEGV);
    }
    return;
  }
  // No handler, or a fault while the handler runs with SIGSEGV blocked:
  // the process ends by SIGSEGV.  A fault does at once (its instruction
  // runs again), a sent signal is sent again.
  if (!Sent) {
    Line L;
    L << "popcorn: node " << uint64_t(N.Self) << ": segmentation fault at ";
    L.hex(uint64_t(Info->si_addr)) << ", pc ";
    L.hex(faultPc(Context));
  }
  long Default[4] = {0, 0, 0, 0};
  sys::call6(sys::RtSigaction, SIGSEGV, long(Default), 0, 8);
  if (Sent)
    sys::call6(sys::Tkill, sys::call6(sys::Gettid, 0), SIGSEGV);
}

void handleFault(siginfo_t *Info, void *Context) {
  NodeState &N = node();
  // raise, kill and sigqueue say so in si_code; a fault's is positive.
  bool Sent = Info->si_code <= 0;
  uint64_t A = pageDown(uint64_t(Info->si_addr));
  int R = Sent ? -1 : rangeOf(A);
  if (R >= 0) {
    PageBit Present = bitOf(N.PresentBits, R, A), Dirty = bitOf(N.DirtyBits, R, A);
    if (!(*Present.Byte & Present.Mask)) {
      FetchStream &Stream = streamAt(A);
      bool Continues = Stream.Window;
      uint32_t Count = pagesToAsk(R, A, Stream);
      if (!roomForPages(Count))
        fail("more pages than a thread may take away from home");
      if (isFresh(R, A)) {
        takeFreshPages(R, A, Count, Stream);
        return;
      }
      if (inKeptRange(A)) {
        deliverProgramFault(Info, Context, Sent); // unmapped, though not at home yet
        return;
      }
      // A write would fault again at once: its page stays writable.  A
      // write that goes on with a stream of writes is a thread writing
      // through memory in order (memset, a loop that fills an array):
      // every page of the run would fault at its first write, a signal
      // and an mprotect (9 us here), so they all stay writable, at the
      // cost of sending home one the thread does not write after all.
      bool Write = faultIsWrite(Context);
      uint32_t Writable = !Write ? 0 : Continues && Stream.Writes ? Count : 1;
      Stream.Writes = Write;
      uint64_t Start = A;
      if (!Continues)
        widenToBlock(R, A, Write, Start, Count);
      uint32_t Flags;
      uint32_t Got = fetch(Start, Count, Writable, Flags);
      if (!Got && Start != A) // home has not the pages below A: A alone
        Got = fetch(Start = A, Count = 1, Writable, Flags);
      if (Got) {
        // Short of A when home's run ended below it: A faults again.
        Stream.Next = Start + Got * PageBytes;
        if ((Flags & PageRunMapShared) && N.MapSharedCount + Got > N.ListCapacity)
          syncMapSharedPages(); // what the list names goes; the new run stays
        N.AnyMapShared |= (Flags & PageRunMapShared) != 0;
        for (uint32_t I = 0; I < Got; I++) {
          uint64_t P = Start + I * PageBytes;
          PageBit Bit = bitOf(N.PresentBits, R, P);
          *Bit.Byte |= Bit.Mask;
          setBit(N.ReadOnlyBits, R, P, Flags & PageRunReadOnly);
          setBit(N.MapSharedBits, R, P, Flags & PageRunMapShared);
          N.PresentList[N.PresentCount++] = P;
          if (Flags & PageRunMapShared)
            N.MapSharedList[N.MapSharedCount++] = P;
          if (I < Writable)
            noteWritten(R, P);
        }
        // A write to a page the program may only read faults again, now
        // on a page that is here: the program's fault, below.
        return;
      }
    } else if (!(*Dirty.Byte & Dirty.Mask) && !isReadOnly(R, A)) {
      markWrittenAhead(R, A);
      return;
    }
  }
  // Not a page of home's, or one home does not have: the program's own.
  deliverProgramFault(Info, Context, Sent);
}

void onFault(int, siginfo_t *Info, void *Context) {
  faultHandlerBegins(); // a signal from home waits for the link (SignalState.h)
  handleFault(Info, Context);
  faultHandlerEnds();
}

void installFaultHandler() {
  uint8_t *AltStack = sys::mapPrivate(SignalStackBytes);
  struct {
    void *Sp;
    int Flags;
    uint64_t Size;
  } Alt = {AltStack, 0, SignalStackBytes};
  struct {
    void (*Handler)(int, siginfo_t *, void *);
    unsigned long Flags;
    void (*Restorer)(void);
    uint64_t Mask;
  } Action = {onFault, SA_SIGINFO | SA_ONSTACK | SA_RESTORER | SA_NODEFER, popcorn_signal_return,
              0};
  if (!AltStack || sys::call6(sys::Sigaltstack, long(&Alt), 0) ||
      sys::call6(sys::RtSigaction, SIGSEGV, long(&Action), 0, 8))
    fail("cannot install the page-fault handler");
  node().SignalStack = {uint64_t(AltStack), uint64_t(AltStack) + SignalStackBytes};
}

enum class Segment { Shared, Private, Outside };

// Home's writable segments that this image has identically hold the
// program's shared data; others that overlap this image are the home ISA's
// own (this image has its own there).
// What this process knew at its start, kept in its runtime's memory: it
// leaves its first stack, which holds the arguments, environment and
// auxiliary vector, before it takes home's ranges (with address
// randomization off here, as under a machine-wide setting, that stack is
// where home's is).
struct NodeStart {
  int KeyFd;
  const Elf64_Phdr *Phdr; // this image's, from the auxiliary vector
  uint64_t PhdrCount;
  AddressRange FirstStack; // the mapping that holds the environment
};

Segment classify(const AddressRange &R, const NodeStart &Start) {
  const Elf64_Phdr *Phdr = Start.Phdr;
  uint64_t Count = Start.PhdrCount;
  uint64_t ImageLow = ~uint64_t(0), ImageHigh = 0;
  for (uint64_t I = 0; Phdr && I < Count; I++) {
    if (Phdr[I].p_type != PT_LOAD)
      continue;
    uint64_t Low = pageDown(Phdr[I].p_vaddr), High = pageUp(Phdr[I].p_vaddr + Phdr[I].p_memsz);
    if ((Phdr[I].p_flags & PF_W) && Low == R.Low && High == R.High)
      return Segment::Shared;
    ImageLow = Low < ImageLow ? Low : ImageLow;
    ImageHigh = High > ImageHigh ? High : ImageHigh;
  }
  return R.Low < ImageHigh && R.High > ImageLow ? Segment::Private : Segment::Outside;
}

// The thread's stack at home, but for the top page, which it shares with
// the arguments and environment (a shared range, fetched from home): the
// thread runs at the same addresses here if nothing of this process's is
// there.  Else it runs in a region of the arena.
void reserveHomeStack(const StackRegion &Stack) {
  NodeState &N = node();
  uint64_t Top = pageDown(Stack.High);
  if (Stack.Low % PageBytes || Stack.Low >= Top || Stack.High - Stack.Low > MaxStackBytes ||
      !sys::reserve(Stack.Low, Top - Stack.Low, sys::MapFixedNoReplace))
    return;
  N.HomeStack = Stack;
  N.StackAtHome = true;
}

void receiveHello(const NodeStart &Start) {
  NodeState &N = node();
  HelloMessage Hello;
  if (!N.HomeLink.receiveExactly(MessageType::Hello, &Hello, sizeof Hello) ||
      Hello.Ranges > MaxSharedRanges || Hello.NodeCount > MaxNodes || !Hello.TimeoutMs)
    fail("no greeting from the home node");
  N.HomePid = int(Hello.HomePid);
  N.HomeLink.TimeoutMs = int(Hello.TimeoutMs);
  // A node lives only as long as its home: if home ends without saying so
  // (killed), the kernel ends this process too.  Home may have ended
  // already, before the request.  A node started by popcorn-node sees the
  // end of its link instead.
  if (Hello.ChildOfHome) {
    sys::call6(sys::Prctl, 1 /* PR_SET_PDEATHSIG */, 9 /* SIGKILL */);
    if (sys::call6(sys::Getppid, 0) != N.HomePid)
      sys::exitGroup(1);
  }
  N.HomeMachine = uint16_t(Hello.HomeMachine);
  if (Hello.Trace)
    startTracing();
  N.NodeCount = Hello.NodeCount;
  for (int I = 0; I < N.NodeCount; I++)
    N.Nodes[I].Machine = Hello.NodeMachines[I];
  // The first stack goes if home's ranges or stack need its addresses:
  // nothing runs on it any more.
  const AddressRange &First = Start.FirstStack;
  bool FirstInTheWay = First.overlaps(Hello.HomeStack.Low, Hello.HomeStack.High);
  for (uint32_t I = 0; I < Hello.Ranges; I++)
    FirstInTheWay |= First.overlaps(Hello.Shared[I].Low, Hello.Shared[I].High);
  if (FirstInTheWay)
    sys::call6(sys::Munmap, long(First.Low), long(First.High - First.Low));
  for (uint32_t I = 0; I < Hello.Ranges; I++) {
    AddressRange R = Hello.Shared[I];
    if (R.Low % PageBytes || R.High % PageBytes || R.High <= R.Low)
      fail("a malformed range in the greeting");
    bool Arena = R.Low == ArenaBase && R.High == ArenaBase + ArenaBytes;
    Segment Kind = Arena ? Segment::Outside : classify(R, Start);
    if (Kind == Segment::Private)
      continue;
    bool Reserved = Arena || sys::reserve(R.Low, R.High - R.Low,
                                          Kind == Segment::Shared ? sys::MapFixed
                                                                  : sys::MapFixedNoReplace);
    if (!Reserved) {
      // The thread would read this process's own memory there instead:
      // better no thread at all.
      char Why[128];
      TextBuffer Text(Why, sizeof Why);
      Text << "home's memory at ";
      Text.hex(R.Low) << " is taken here";
      fail(Why);
    }
    uint64_t Pages = (R.High - R.Low) / PageBytes;
    N.Shared[N.SharedCount] = R;
    N.PresentBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.DirtyBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.FreshBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.ReadOnlyBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.MapSharedBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    N.HadBits[N.SharedCount] = sys::mapPrivate(Pages / 8 + 1);
    if (!N.PresentBits[N.SharedCount] || !N.DirtyBits[N.SharedCount] ||
        !N.FreshBits[N.SharedCount] || !N.ReadOnlyBits[N.SharedCount] ||
        !N.MapSharedBits[N.SharedCount] || !N.HadBits[N.SharedCount])
      fail("no memory for page bookkeeping");
    N.SharedCount++;
  }
  reserveHomeStack(Hello.HomeStack);
}

void setThreadPointer(uint64_t Tp) {
#if defined(__x86_64__)
  sys::call6(sys::ArchPrctl, 0x1002 /* ARCH_SET_FS */, long(Tp));
#else
  __asm__ volatile("msr tpidr_el0, %0" ::"r"(Tp));
#endif
}

void forgetChanged(uint32_t Bytes);

// On the runtime's stack: wait for the thread and continue it.
[[noreturn]] void waitForThread(void *) {
  NodeState &N = node();
  MessageHeader H;
  MigrateMessage M;
  bool Forgot = false;
  for (;;) {
    if (!N.HomeLink.receiveHeader(H))
      sys::exitGroup(0); // home ended: so does this node
    if (H.Type == MessageType::Forget)
      forgetChanged(H.Bytes), Forgot = true;
    else if (H.Type == MessageType::ForgetAll && !H.Bytes)
      forgetAllKept(), Forgot = true;
    else if (H.Type != MessageType::SignalActions)
      break;
    else if (!takeSignalActions(H.Bytes))
      fail("a malformed list of signal actions");
  }
  if (Forgot)
    compactPresentList();
  TraceSpan Arrival(TraceKind::Arrive);
  if (H.Type != MessageType::Migrate || H.Bytes < sizeof M ||
      !N.HomeLink.receivePayload(&M, sizeof M))
    fail("a malformed message where a thread was expected");
  uint64_t StackBytes = H.Bytes - sizeof M;
  const StackRegion &Away = M.Away;
  bool AtHome = N.StackAtHome && Away.Low >= N.HomeStack.Low &&
                Away.High == N.HomeStack.High && Away.Low == M.Home.Low &&
                Away.High == M.Home.High;
  bool InArena = Away.Low >= ArenaBase && Away.High <= ArenaBase + ArenaBytes &&
                 Away.Low % PageBytes == 0 && Away.High % PageBytes == 0;
  // At home's addresses the rest of the top page (the arguments) comes
  // along with the stack.
  uint64_t End = AtHome ? pageUp(Away.High) : Away.High;
  if (!(AtHome || InArena) || M.Registers.Sp < Away.Low || M.Registers.Sp + StackBytes != End ||
      M.Registers.Machine != Here || M.Home.High <= M.Home.Low ||
      M.Home.High - M.Home.Low > MaxStackBytes)
    fail("a thread whose stack is not where it should be");
  if (N.Home.Low != M.Home.Low || N.Home.High != M.Home.High) {
    N.HomeStackImage = sys::mapPrivate(M.Home.High - M.Home.Low + PageBytes);
    if (!N.HomeStackImage)
      fail("no memory for the home stack's image");
  }
  // At home's addresses the stack may grow as far as at home, and an
  // overflow faults where it would there.  Unless the stack ends on a
  // page boundary (as it does one time in 256 with the kernel's random
  // placement), its top page holds the arguments too (a shared range):
  // home sent it along, and it goes back written, with the thread.
  StackRegion Mapped = AtHome ? N.HomeStack : Away;
  uint64_t Top = pageDown(Mapped.High);
  bool SharedTop = AtHome && Mapped.High % PageBytes;
  uint8_t *Bytes = AtHome ? N.HomeStackImage + (M.Registers.Sp - Away.Low)
                          : reinterpret_cast<uint8_t *>(M.Registers.Sp);
  long Map = sys::call6(sys::Mmap, long(Mapped.Low), long(Top - Mapped.Low), sys::ProtReadWrite,
                        sys::MapPrivateAnonymous | sys::MapFixed, -1, 0);
  if (sys::failed(Map) || !N.HomeLink.receivePayload(Bytes, StackBytes))
    lostHome();
  if (SharedTop) {
    int R = rangeOf(Top);
    if (R < 0)
      fail("home's stack top is not shared here");
    takeWrittenPage(R, Top);
  }
  if (AtHome)
    __builtin_memcpy(reinterpret_cast<void *>(M.Registers.Sp), Bytes, StackBytes);
  N.Home = M.Home;
  N.Away = Away;
  setThreadPointer(M.Registers.ThreadPointer);
  setThreadMask(M.SignalMask);
  noteArrivedFrames(M.Registers);
  clearSignalHolds(); // it left in the middle of returnHome's
  Arrival.finish();
  fesetenv(&M.FloatEnvironment);
  popcorn_resume(&M.Registers);
}

// Page A of shared range R is no longer here.
void forgetPage(int R, uint64_t A) {
  NodeState &N = node();
  PageBit P = bitOf(N.PresentBits, R, A), D = bitOf(N.DirtyBits, R, A);
  *P.Byte &= uint8_t(~P.Mask);
  *D.Byte &= uint8_t(~D.Mask);
  setBit(N.FreshBits, R, A, false);
  setBit(N.ReadOnlyBits, R, A, false);
  setBit(N.MapSharedBits, R, A, false);
  setBit(N.HadBits, R, A, false);
}

// Once the thread has left, home may write any page: none is fresh.
void forgetFreshPages() {
  NodeState &N = node();
  if (!N.AnyFresh)
    return;
  for (uint32_t R = 0; R < N.SharedCount; R++)
    __builtin_memset(N.FreshBits[R], 0, (N.Shared[R].High - N.Shared[R].Low) / PageBytes / 8 + 1);
  N.AnyFresh = false;
}

// Keeps in the present list only the pages still here.
void compactPresentList() {
  NodeState &N = node();
  uint64_t Kept = 0;
  for (uint64_t I = 0; I < N.PresentCount; I++) {
    uint64_t A = N.PresentList[I];
    int R = rangeOf(A);
    if (R >= 0 && isPresent(R, A))
      N.PresentList[Kept++] = A;
  }
  N.PresentCount = Kept;
}

// The runs of pages here: each is a mapping of its own in the kernel,
// between inaccessible ones.  By whole words of the bitmaps, whose
// memory is whole pages.
uint64_t presentRuns() {
  NodeState &N = node();
  uint64_t Runs = 0;
  for (uint32_t R = 0; R < N.SharedCount; R++) {
    uint64_t Bytes = (N.Shared[R].High - N.Shared[R].Low) / PageBytes / 8 + 1, Before = 0;
    for (uint64_t At = 0; At < Bytes; At += 8) {
      uint64_t Word;
      __builtin_memcpy(&Word, N.PresentBits[R] + At, 8);
      if (Word)
        Runs += uint64_t(__builtin_popcountll(Word & ~(Word << 1 | Before)));
      Before = Word >> 63;
    }
  }
  return Runs;
}

// The thread has left with every page it wrote.  The arena's pages stay,
// read-only and clean again: home names those that change before the
// thread comes back (RetainedPages.h).  The few others (data segments,
// the top of home's stack) are forgotten.  So are all of them when they lie
// in more than MaxKeptRuns runs: each run is a mapping, and a thread that
// reads pages at random over a large table would take the kernel to its
// limit of them (vm.max_map_count, 65,530 by default), where mprotect
// fails; many make every fault and mprotect slower before that.
void keepArenaPages() {
  NodeState &N = node();
  forgetFreshPages();
  for (uint64_t I = 0; I < N.DirtyCount;) {
    if (!stillWritten(N.DirtyList[I])) {
      I++;
      continue;
    }
    uint64_t A = N.DirtyList[I];
    uint32_t Pages = writtenRun(I);
    sys::call6(sys::Mprotect, long(A), long(Pages * PageBytes), sys::ProtRead);
    for (uint32_t P = 0; P < Pages; P++) {
      PageBit D = bitOf(N.DirtyBits, rangeOf(A + P * PageBytes), A + P * PageBytes);
      *D.Byte &= uint8_t(~D.Mask);
    }
    I += Pages;
  }
  N.DirtyCount = 0;
  for (uint64_t I = 0; I < N.PresentCount; I++) {
    uint64_t A = N.PresentList[I];
    if (A < ArenaBase || A >= ArenaBase + ArenaBytes) {
      sys::reserve(A, PageBytes);
      forgetPage(rangeOf(A), A);
    }
  }
  if (N.PresentCount > MaxKeptRuns && presentRuns() > MaxKeptRuns) // no more runs than pages
    forgetAllKept();
  compactPresentList();
  uint64_t Low = N.StackAtHome && N.Away.High == N.HomeStack.High ? N.HomeStack.Low : N.Away.Low;
  sys::reserve(Low, pageDown(N.Away.High) - Low);
}

// Pages made inaccessible in runs of consecutive ones: one call per run.
struct ForgottenRun {
  uint64_t Low = 0, High = 0;
  void add(uint64_t A) {
    if (A == High) {
      High += PageBytes;
      return;
    }
    close();
    Low = A;
    High = A + PageBytes;
  }
  void close() {
    if (High)
      sys::call6(sys::Mprotect, long(Low), long(High - Low), sys::ProtNone);
    High = 0;
  }
};

// Home's Forget: pages whose content changed since this node got them.
// They become inaccessible, not unmapped: the next fetch of one writes
// over its old bytes rather than into a page the kernel has to free now
// and find and clear then (2-3 us a page here).
void forgetChanged(uint32_t Bytes) {
  NodeState &N = node();
  if (Bytes % 8)
    fail("a malformed list of pages to forget");
  uint64_t Addresses[256];
  ForgottenRun Run;
  for (uint32_t Done = 0; Done < Bytes;) {
    uint32_t Chunk = Bytes - Done < sizeof Addresses ? Bytes - Done : uint32_t(sizeof Addresses);
    if (!N.HomeLink.receivePayload(Addresses, Chunk))
      lostHome();
    for (uint32_t I = 0; I < Chunk / 8; I++) {
      uint64_t A = Addresses[I];
      int R = A % PageBytes ? -1 : rangeOf(A);
      if (R < 0 || !isPresent(R, A))
        continue;
      forgetPage(R, A);
      setBit(N.HadBits, R, A, true);
      Run.add(A);
    }
    Done += Chunk;
  }
  Run.close();
}

// Home's ForgetAll: every page kept from earlier trips (all arena pages,
// in the order they came: runs, mostly) may have changed.  Or, when the
// kernel will not map one more page (OnlyClean), the pages this trip has
// not written, which the thread can fetch again.
void forgetAllKept(bool OnlyClean) {
  NodeState &N = node();
  ForgottenRun Run;
  for (uint64_t I = 0; I < N.PresentCount; I++) {
    uint64_t A = N.PresentList[I];
    int R = rangeOf(A);
    if (R < 0 || !isPresent(R, A) ||
        (OnlyClean && (hasBit(N.DirtyBits, R, A) || isMapShared(R, A))))
      continue;
    forgetPage(R, A);
    setBit(N.HadBits, R, A, true);
    Run.add(A);
  }
  Run.close();
}
} // namespace

void lostHome() {
  NodeState &N = node();
  {
    Line L;
    L << "popcorn: node " << uint64_t(N.Self) << ": ";
    if (N.HomeLink.TimedOut)
      L << "the home node did not answer within " << uint64_t(N.HomeLink.TimeoutMs)
        << " ms (POPCORN_TIMEOUT)";
    else
      L << "lost the link to the home node";
  }
  sys::exitGroup(1);
}

void touchPages(uint64_t Address, uint64_t Bytes, bool Write) {
  if (!Bytes)
    return;
  for (uint64_t A = pageDown(Address); A < Address + Bytes; A += PageBytes) {
    if (rangeOf(A) < 0)
      continue;
    auto *P = reinterpret_cast<volatile uint8_t *>(A < Address ? Address : A);
    uint8_t V = *P;
    if (Write)
      *P = V;
  }
}

void dropPages(uint64_t Address, uint64_t Bytes) {
  for (uint64_t A = pageDown(Address); A < Address + Bytes; A += PageBytes)
    if (int R = rangeOf(A); R >= 0)
      forgetPage(R, A);
  sys::reserve(pageDown(Address), pageUp(Address + Bytes) - pageDown(Address));
}

namespace {
void setFreshness(uint64_t Address, uint64_t Bytes, bool Fresh) {
  NodeState &N = node();
  for (uint64_t A = pageDown(Address); A < Address + Bytes; A += PageBytes)
    if (int R = rangeOf(A); R >= 0) {
      PageBit F = bitOf(N.FreshBits, R, A);
      *F.Byte = Fresh ? uint8_t(*F.Byte | F.Mask) : uint8_t(*F.Byte & ~F.Mask);
      N.AnyFresh |= Fresh;
    }
}
} // namespace

void takeFreshRange(uint64_t Address, uint64_t Bytes) {
  // A small one is mapped writable at once, every page here and written:
  // malloc maps and unmaps groups of a few pages all the time, and each
  // would otherwise fault at its first touch and page by page as its
  // stream's window grows (a signal and an mprotect, 10 us here, against
  // none at home).
  constexpr uint64_t MaxWritableAtOnce = 64 * 1024;
  NodeState &N = node();
  int R = Bytes <= MaxWritableAtOnce ? rangeOf(Address) : -1;
  if (R < 0 || !N.Shared[R].contains(Address + Bytes - 1) || !roomForPages(Bytes / PageBytes)) {
    dropPages(Address, Bytes);
    setFreshness(Address, Bytes, true);
    return;
  }
  for (uint64_t A = Address; A < Address + Bytes; A += PageBytes)
    forgetPage(R, A);
  long Map = sys::call6(sys::Mmap, long(Address), long(Bytes), sys::ProtReadWrite,
                        sys::MapPrivateAnonymous | sys::MapFixed, -1, 0);
  if (sys::failed(Map))
    fail("no memory for a mapping");
  for (uint64_t A = Address; A < Address + Bytes; A += PageBytes) {
    PageBit Present = bitOf(N.PresentBits, R, A);
    *Present.Byte |= Present.Mask;
    N.PresentList[N.PresentCount++] = A;
    noteWritten(R, A);
  }
  // Still fresh: home has them zero, so one that is zero still when the
  // thread leaves or the program protects it is dropped, not sent.
  setFreshness(Address, Bytes, true);
}

namespace {
// Page A of range R, made here for a fresh mapping (RemoteNode.h:
// takeFreshRange), goes if it is zero still: home has it so.
bool dropIfStillZero(int R, uint64_t A, ForgottenRun &Run) {
  if (!isFresh(R, A) || !isPresent(R, A))
    return false;
  const uint64_t *Words = reinterpret_cast<const uint64_t *>(A);
  for (unsigned I = 0; I < PageBytes / 8; I++)
    if (Words[I])
      return false;
  forgetPage(R, A);
  Run.add(A);
  return true;
}
} // namespace

namespace {
// Written pages sent home ahead of the thread: in runs of consecutive
// ones (PageData), and those apart from each other in sets (PageSet).
struct WrittenRun {
  PageRunMessage Run = {0, 0, 0};
  PageSetMessage Set = {0, 0};
  uint64_t SetAddress[MaxPagesPerRun];
  void add(uint64_t A) {
    if (Run.Pages && Run.Address + Run.Pages * PageBytes == A && Run.Pages < MaxPagesPerRun) {
      Run.Pages++;
      return;
    }
    endRun();
    Run = {A, 1, 0};
  }
  // The next page added starts a run: a run of one joins the set.
  void endRun() {
    if (Run.Pages == 1) {
      SetAddress[Set.Count++] = Run.Address;
      if (Set.Count == MaxPagesPerRun)
        sendSet();
    } else if (Run.Pages && !node().HomeLink.send2(MessageType::PageData, &Run, sizeof Run,
                                                   reinterpret_cast<void *>(Run.Address),
                                                   Run.Pages * PageBytes)) {
      lostHome();
    }
    Run.Pages = 0;
  }
  void sendSet() {
    static_assert(2 + MaxPagesPerRun <= Channel::MaxPayloadParts, "a set is one message");
    SendPart Parts[2 + MaxPagesPerRun] = {{&Set, sizeof Set},
                                          {SetAddress, Set.Count * sizeof SetAddress[0]}};
    for (uint32_t I = 0; I < Set.Count; I++)
      Parts[2 + I] = {reinterpret_cast<void *>(SetAddress[I]), PageBytes};
    if (Set.Count && !node().HomeLink.sendGathered(MessageType::PageSet, Parts, 2 + Set.Count))
      lostHome();
    Set.Count = 0;
  }
  // Everything added, home's now.
  void send() {
    endRun();
    sendSet();
  }
};
} // namespace

void returnPages(uint64_t Address, uint64_t Bytes) {
  uint64_t Low = pageDown(Address), High = pageUp(Address + Bytes);
  // What the thread wrote there goes home first, while the program may
  // still write it there: home takes it back through its kernel.  A page
  // made here and zero still needs no message.
  ForgottenRun Gone;
  WrittenRun Written;
  for (uint64_t A = Low; A < High; A += PageBytes) {
    int R = rangeOf(A);
    if (R < 0 || !isPresent(R, A) || dropIfStillZero(R, A, Gone) || !stillWritten(A))
      Written.endRun();
    else
      Written.add(A);
  }
  Written.send();
  // Then none is here or fresh: each is asked for again, and home's
  // answer says whether the program may read it or write it.
  for (uint64_t A = Low; A < High; A += PageBytes) {
    int R = rangeOf(A);
    if (R < 0)
      continue;
    if (isPresent(R, A))
      Gone.add(A);
    forgetPage(R, A);
  }
  Gone.close();
}

namespace {
// Sends home the bytes of page A that differ from its twin.
void sendDiff(uint64_t A, const uint8_t *Twin) {
  NodeState &N = node();
  const uint8_t *Page = reinterpret_cast<const uint8_t *>(A);
  PageDiffMessage M = {A, 0, 0};
  uint32_t Used = sizeof M;
  for (uint32_t I = 0; I < PageBytes;) {
    if (Page[I] == Twin[I]) {
      I++;
      continue;
    }
    uint32_t End = I + 1;
    while (End < PageBytes && Page[End] != Twin[End])
      End++;
    DiffSegment Segment = {uint16_t(I), uint16_t(End - I)};
    __builtin_memcpy(N.Diff + Used, &Segment, sizeof Segment);
    __builtin_memcpy(N.Diff + Used + sizeof Segment, Page + I, End - I);
    Used += sizeof Segment + (End - I);
    M.Segments++;
    I = End;
  }
  __builtin_memcpy(N.Diff, &M, sizeof M);
  if (M.Segments && !N.HomeLink.send(MessageType::PageDiff, N.Diff, Used))
    lostHome();
}
} // namespace

bool inMapSharedPage(uint64_t A) {
  touchPages(A, 4, false);
  int R = rangeOf(pageDown(A));
  return R >= 0 && isMapShared(R, pageDown(A));
}

void syncMapSharedPages() {
  NodeState &N = node();
  if (!N.AnyMapShared)
    return;
  N.AnyMapShared = false;
  auto MapShared = [](uint64_t A, int &R) {
    R = rangeOf(A);
    return R >= 0 && isMapShared(R, A);
  };
  // The bytes the thread changed, where a twin says which; whole pages
  // past the twins.  All go before the pages are forgotten below.
  int R;
  for (uint32_t I = 0; I < N.TwinCount; I++) {
    uint64_t A = N.TwinAddress[I];
    if (MapShared(A, R) && stillWritten(A)) {
      sendDiff(A, N.Twins + uint64_t(I) * PageBytes);
      setBit(N.DirtyBits, R, A, false);
    }
  }
  N.TwinCount = 0;
  WrittenRun Written;
  for (uint64_t I = 0; I < N.MapSharedCount; I++) {
    uint64_t A = N.MapSharedList[I];
    if (MapShared(A, R) && stillWritten(A))
      Written.add(A);
    else
      Written.endRun();
  }
  Written.send();
  ForgottenRun Gone;
  for (uint64_t I = 0; I < N.MapSharedCount; I++) {
    uint64_t A = N.MapSharedList[I];
    if (!MapShared(A, R))
      continue;
    forgetPage(R, A);
    Gone.add(A);
  }
  Gone.close();
  N.MapSharedCount = 0;
}

RewriteError returnHome(RegisterSet &Registers, int Next) {
  NodeState &N = node();
  SignalsHeld Leaving; // those that come now go home (takePendingSignals)
  settleResetActions();
  RegisterSet Out;
  int64_t Bias = int64_t(N.HomeStackImage) - int64_t(N.Home.Low);
  RewriteRequest Request{&__popcorn_metadata, &Registers, N.HomeMachine,
                         threadPointerFor(N.HomeMachine, Registers), N.Home, N.Scratch,
                         N.MaxFrames, Bias, signalReturnAddress()};
  TraceSpan Departure(TraceKind::Leave);
  RewriteResult Result = rewriteStack(Request, Out);
  if (Result.Error != RewriteError::None) {
    N.LastRefusal = Result;
    return Result.Error;
  }
  Departure.mark();
  Out.Gpr[0] = 0; // popcorn_migrate's result where it lands
  carryObjectStack(Registers, N.HomeMachine); // before the written pages go

  syncMapSharedPages(); // and none is kept: other processes write them meanwhile
  endNodeMappings();
  ReturnHomeMessage M{Out, uint32_t(Next), 0, threadMask(), takePendingSignals()};
  fegetenv(&M.FloatEnvironment);
  uint64_t StackBytes = N.Home.High - Out.Sp;
  if (!N.HomeLink.send2(MessageType::ReturnHome, &M, sizeof M,
                        N.HomeStackImage + (Out.Sp - N.Home.Low), uint32_t(StackBytes)))
    lostHome();
  // The pages it wrote, in runs of consecutive ones: in the order they
  // were first written, so a thread that wrote through memory in order
  // sends few long runs.  Not those made here that are zero still.
  compactDirtyList();
  ForgottenRun Zero;
  bool Dropped = false;
  for (uint64_t I = 0; N.AnyFresh && I < N.DirtyCount; I++)
    Dropped |= dropIfStillZero(rangeOf(N.DirtyList[I]), N.DirtyList[I], Zero);
  Zero.close();
  if (Dropped)
    compactDirtyList();
  WrittenRun Written; // the list holds each page still written once
  for (uint64_t I = 0; I < N.DirtyCount; I++)
    Written.add(N.DirtyList[I]);
  Written.send();
  Departure.finish(sizeof M + StackBytes + N.DirtyCount * PageBytes, Result.Frames);
  sendTrace(N.HomeLink);
  if (!N.HomeLink.send(MessageType::End, nullptr, 0))
    lostHome();
  keepArenaPages();
  waitForThread(nullptr);
}

// The key home handed over in the pipe KeyFd, read once.
void authenticate(int KeyFd) {
  NodeState &N = node();
  LinkKey Key;
  if (!sys::everyByte(Key.Bytes, sizeof Key.Bytes, [KeyFd](long At, uint64_t Left) {
        return sys::call6(sys::Read, KeyFd, At, long(Left));
      }))
    fail("no key from the home node");
  sys::call6(sys::Close, KeyFd);
  switch (authenticateHome(N.HomeLink, Key)) {
  case AuthResult::Accepted:
    return;
  case AuthResult::Refused:
    fail("the home node failed authentication");
  case AuthResult::Lost:
    lostHome();
  }
}

// On the runtime's stack: the greeting, then the thread.
[[noreturn]] void startNode(void *Argument) {
  NodeState &N = node();
  NodeStart Start = *static_cast<const NodeStart *>(Argument); // on the first stack
  // popcorn-node authenticated the link of a node it started.
  if (Start.KeyFd >= 0)
    authenticate(Start.KeyFd);
  installFaultHandler();
  receiveHello(Start);
  // Before Ready: from then on home may signal this process.
  installSteeringHandler();
  ReadyMessage Ready = {N.StackAtHome};
  if (!N.HomeLink.send(MessageType::Ready, &Ready, sizeof Ready))
    lostHome();
  N.ReadySent = true;
  // From the top again: nothing of this function's is needed any more.
  popcorn_call_on_stack(N.RuntimeStackTop, waitForThread, nullptr);
  __builtin_unreachable();
}

void runRemoteNode(int Self, int Fd, int KeyFd, char **Envp) {
  NodeState &N = node();
  N.Remote = true;
  N.Self = Self;
  N.HomeLink.open(Fd);
  N.HomeLink.TimeoutMs = DefaultTimeoutMs;
  uint8_t *RuntimeStack = sys::mapPrivate(RuntimeStackBytes);
  N.Scratch = reinterpret_cast<FramePair *>(sys::mapPrivate(MaxFrames * sizeof(FramePair)));
  N.MaxFrames = MaxFrames;
  N.SyscallBuffer = sys::mapPrivate(SyscallBufferBytes);
  N.PresentList = reinterpret_cast<uint64_t *>(sys::mapPrivate(ListCapacity * 8));
  N.MapSharedList = reinterpret_cast<uint64_t *>(sys::mapPrivate(ListCapacity * 8));
  N.Twins = sys::mapPrivate(uint64_t(MaxTwins) * PageBytes);
  N.TwinAddress = reinterpret_cast<uint64_t *>(sys::mapPrivate(MaxTwins * 8));
  N.Diff = sys::mapPrivate(MaxDiffBytes);
  N.DirtyList = reinterpret_cast<uint64_t *>(sys::mapPrivate(ListCapacity * 8));
  N.ListCapacity = ListCapacity;
  if (!RuntimeStack || !N.Scratch || !N.SyscallBuffer || !N.PresentList || !N.DirtyList ||
      !N.MapSharedList || !N.Twins || !N.TwinAddress || !N.Diff)
    fail("no memory for the runtime");
  N.RuntimeStackTop = RuntimeStack + RuntimeStackBytes;
  if (!reserveArena())
    fail("the arena's address range is taken in this process");
  NodeStart Start = {KeyFd, nullptr, 0, {}};
  char **Aux = Envp;
  while (*Aux)
    Aux++;
  for (auto *A = reinterpret_cast<const uint64_t *>(Aux + 1); A[0] != AT_NULL; A += 2) {
    if (A[0] == AT_PHDR)
      Start.Phdr = reinterpret_cast<const Elf64_Phdr *>(A[1]);
    if (A[0] == AT_PHNUM)
      Start.PhdrCount = A[1];
  }
  forEachMapping([&Start, Envp](uint64_t Low, uint64_t High, uint32_t) {
    if (AddressRange{Low, High}.contains(uint64_t(Envp)))
      Start.FirstStack = {Low, High};
  });
  popcorn_call_on_stack(N.RuntimeStackTop, startNode, &Start);
  __builtin_unreachable();
}

} // namespace popcorn
