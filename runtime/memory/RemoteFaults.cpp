//===- RemoteFaults.cpp - A remote node brings home's pages in as they are touched ===//
//
// Every page of home's shared ranges starts inaccessible here; the
// program's first touch of one faults, and the SIGSEGV handler asks home
// for it, and for the pages the thread is likely to touch next (a stream
// it reads or writes in order, a block it uses densely).  A fault that is
// not a page of home's is the program's own, passed on to its handler.
//
//===----------------------------------------------------------------------===//
#include "memory/NodeMappings.h"
#include "memory/RemotePages.h"
#include "memory/RemotePageSets.h"
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/NodeFailure.h"
#include "support/Report.h"
#include "trace/Trace.h"
#include <signal.h>

extern "C" {
void popcorn_signal_return(void);
}

namespace popcorn {
namespace {
constexpr uint64_t SignalStackBytes = 64 * 1024;

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
  QuietLink Quiet; // the answer's arrival needs no signal
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
      failNode("the kernel refuses to map one more page here (its limit of mappings, "
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
        failNode("more pages than a thread may take away from home");
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
} // namespace

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
    failNode("cannot install the page-fault handler");
  node().SignalStack = {uint64_t(AltStack), uint64_t(AltStack) + SignalStackBytes};
}

} // namespace popcorn
