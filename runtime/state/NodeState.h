//===- NodeState.h - This process's own runtime state -----------*- C++ -*-===//
//
// Everything the runtime keeps per process rather than per program: which
// node this process is, its links to the other nodes, the home node's
// arena allocator, a remote node's page bookkeeping.  It lives in the
// node-private range (AddressMap.h), mapped by __popcorn_start before libc
// runs, because the program's own data pages belong to the home node and
// move between processes.
//
// Any thread of the program migrates, one at a time: while it is away the
// others are held at home (signals/HeldThreads.h).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_NODESTATE_H
#define POPCORN_RUNTIME_NODESTATE_H

#include "link/Authentication.h"
#include "link/Channel.h"
#include "Rewrite.h"
#include "SetjmpFrames.h"
#include "state/NodeList.h"
#include "support/AddressMap.h"
#include "support/Signals.h"
#include "support/Syscall.h"

namespace popcorn {

struct TraceBuffer;

// A frame of the thread where it arrived: its CFA and its call site.
struct ArrivedFrame {
  uint64_t Cfa;
  const popcorn_call_site *Site;
};

// Faults that each ask where the last one's request ended: a thread
// reading or writing through memory in order (memory/RemoteFaults.cpp).
struct FetchStream {
  uint64_t Next;     // where its last request ended
  uint64_t LastUsed; // the fault that last went on with it
  uint32_t Window;   // pages its last request could ask for (0: none yet)
  bool Writes;       // its last request was for a write
};
// Streams followed at once: matrix code reads a row of one array while it
// goes through another, copies read one and write another.
inline constexpr unsigned FetchStreams = 4;

// Remote: a private anonymous mapping home made for this node during
// this trip; Kept once the program unmapped it whole (NodeMappings.h).
struct NodeMapping {
  uint64_t Address, Bytes;
  long Prot, Flags;
  bool Kept;
};
inline constexpr unsigned MaxNodeMappings = 256;

struct NodeEntry : NodePlace {
  Channel Link;     // home: to this node once started
  int Pid;          // home: the process it runs in (ssh: the launcher's), 0 for tcp
  int LauncherErrors; // home, ssh: what the launcher wrote on stderr (a memfd), 0 if none
  bool Warned;      // home: a failure to start it was reported
  uint64_t SignalActionsSent; // home: NodeState::SignalActionsRead it last had
  bool StackAtHome; // home: the node runs the thread at its home stack's addresses
  uint64_t Moves;   // home: the thread's moves here (POPCORN_LOG=stats)
  bool Emulated;    // home: it runs under qemu-user (node 0: home itself does,
  bool EmulationKnown; // once this says it was asked: homeRunsEmulated())
  /// A process of this machine that home started, which home can signal.
  bool startedByHome() const {
    return (How == Launcher::Native || How == Launcher::Qemu) && Pid > 0;
  }
  /// A node on another machine (or one home reaches only through its link).
  bool remote() const { return How == Launcher::Tcp || How == Launcher::Ssh; }
};

struct ControlServer; // ControlSocket.cpp

struct ArenaFreeRange {
  uint64_t Address, Bytes;
};

struct NodeState {
  // The runtime's environment variables (Settings.h), by Setting.
  const char *Settings[15];
  bool Remote;      // this process was started to run a migrated thread
  bool ReportAtExit; // POPCORN_LOG=stats
  bool Quiet;        // POPCORN_LOG=quiet: no warnings
  int TimeoutMs;     // POPCORN_TIMEOUT: how long an answer may take
  bool ArenaReady;
  // The migration metadata, inflated at its first use (MigrationMetadata.h),
  // and whether it is: not yet, done, the section is damaged, or under way
  // (MigrationMetadata.cpp).
  const popcorn_metadata *Metadata;
  uint32_t MetadataState;
  // Home: calls that may have made a mapped page unreadable (unmapped,
  // protected, replaced), counted; whether a file was ever mapped (a page
  // past a truncated file's end faults); whether the program ran one
  // thread when the thread last left; the arena pages known readable
  // since MappingChanges was ReadableSince (ReadablePages.h).
  uint64_t MappingChanges;
  // Home: calls that may have made a page readable and not writable, or
  // mapped memory shared with other processes (PageAccess.h), counted,
  // and what the maps said of those pages since.
  uint64_t ReadOnlyMade, SharedMade;
  // Home: calls that set a signal action, counted (SignalState.h).  Here,
  // in the first page with the settings, as the trace below: every start
  // makes one (the runtime's own trigger), and a field further down cost
  // it a page fault (bench/startup.sh).
  uint64_t SignalActionsChanged;
  // Null unless recording a trace (Trace.h): every trace hook and the
  // end of every run read it.
  TraceBuffer *Trace;
  void *PageKinds;
  bool FileMapped;
  bool OneProgramThread;
  uint8_t *ReadableBits;
  uint64_t ReadableSince;
  int Self;         // this process's node number
  int NodeCount;
  NodeEntry Nodes[MaxNodes];
  int LinksOwner; // home: the process that started the nodes (not a forked child)

  // Home: the arena (AddressMap.h) is handed out from Next up; freed
  // ranges are reused first.
  uint64_t ArenaNext;
  uint32_t FreeCount; // in Free, below

  // A migration asked for by popcorn_migrate, taken at its own point.
  bool Requested;
  int RequestedNode;
  // Home: a program of several threads moves one at a time; while it is
  // away the others wait in a signal handler (signals/HeldThreads.h).
  // The tid of the thread between its departure and its return (0: none),
  // the generation of the hold under way (0: none; a futex word), the
  // threads in the handler, and whether the others are held.
  volatile int Departing;
  volatile uint32_t HoldWord;
  volatile uint32_t HeldCount;
  uint32_t HoldGeneration;
  bool OthersHeld;
  // Remote: the thread's others are held at home while it is here
  // (MigrateMessage): it lets them run around a call that may wait, and
  // when home asks (YieldRequest), from the stack pointer the request's
  // handler interrupted (syscalls/ForwardCalls.cpp: yieldToHome).
  bool OthersHeldAtHome;
  int ThreadTid; // Remote: the thread's tid at home (the trace's track)
  void (*YieldToHome)(uint64_t InterruptedSp);
  // Remote: the next forwarded call releases them around its exchange,
  // with the thread's stack from here up (0: it does not); the thread's
  // home thread ended in a call it made there (cancelled: ThreadEnded),
  // and so does it here.
  uint64_t ReleaseFrom;
  void (*ForgetThread)();
  // Home: the thread is on another node; SIGRTMIN arrived (Triggers.h).
  bool ThreadAway;
  volatile bool SignalledMigration;
  // popcorn-ctl (ControlSocket.h, Steering.h): the node home last heard
  // the thread from (0: home), a move asked for (its node + 1; 0: none),
  // home's control socket (opened when popcorn-ctl first asks), the
  // environment it was started with (where the socket goes), whether a
  // request is being served, and what else signal 34 asks (Triggers.h).
  volatile int ThreadNode;
  volatile int SteeredNode;
  volatile int SteeredTid; // 0: whichever thread (Steering.h)
  // Home under qemu-user: qemu's own threads, there before the program's
  // first pthread_create (the program's main thread and the control
  // thread aside), which popcorn-ctl does not list.
  int QemuThreads[4];
  bool QemuThreadsKnown;
  // Home: a move for a node reached by its link alone, destination + 1,
  // waiting for the thread serving that node to send it, and the eventfd
  // that wakes it (Steering.h).  Remote, on such a node: the link has
  // had news since the last migration point; the thread is here; the
  // link can raise SIGRTMIN+1, its file status flags (without O_ASYNC);
  // exchanges under way that keep it quiet.
  volatile int SteerToRelay;
  int SteerWakeFd;
  volatile bool LinkNews;
  bool ThreadHere;
  bool LinkSignals;
  long LinkFlags;
  int QuietLinkDepth;
  ControlServer *Control;
  char **StartEnvironment;
  bool ControlOpening;
  void (*ShellSignalTrigger)(int);

  // Remote: the migrating thread's native stack regions, Home the stack
  // it started on there, Away the one it runs on here: Home's addresses
  // (reserved at the greeting: StackAtHome) or a region of the arena; the
  // runtime's own stack and scratch space.
  StackRegion Home, Away;
  bool StackAtHome;
  StackRegion HomeStack; // as the greeting named it
  uint8_t *HomeStackImage; // where a rewrite for home writes Home's bytes
  uint8_t *RuntimeStackTop;
  AddressRange SignalStack; // its SIGSEGV handler's, which brings pages in
  // The program's own SIGSEGV handler, while it runs (memory/RemoteFaults.cpp): the
  // frame of the fault handler that called it, its flags, and whether the
  // program sent itself a SIGSEGV meanwhile that waits for its return.
  uint64_t ProgramFaultFrame, ProgramFaultFlags;
  bool ProgramFaultPending;
  FramePair *Scratch;
  uint32_t MaxFrames;
  int HomePid;

  // Remote: the link home, the shared ranges and per page of them whether
  // it is here (read-only) and whether it was written (read-write).
  Channel HomeLink;
  bool ReadySent; // home waits for Ready or a NodeError until then
  uint32_t SharedCount;
  AddressRange Shared[MaxSharedRanges];
  uint8_t *PresentBits[MaxSharedRanges];
  uint8_t *DirtyBits[MaxSharedRanges];
  // Pages of anonymous private memory home mapped at this node's request
  // during this trip and not touched since: zero at home, so this node
  // makes them itself at the first touch instead of asking (memory/RemoteFaults.cpp).
  uint8_t *FreshBits[MaxSharedRanges];
  bool AnyFresh;
  // Pages here that the program may not write, and pages here shared
  // with other processes, as home served them (PageAccess.h).
  uint8_t *ReadOnlyBits[MaxSharedRanges];
  uint8_t *MapSharedBits[MaxSharedRanges];
  // Pages this node had until it forgot them (home changed them, or the
  // kernel would not map more): pages the thread used here, which tell
  // which blocks it uses densely (memory/RemoteFaults.cpp, widenToBlock).
  uint8_t *HadBits[MaxSharedRanges];
  bool AnyMapShared;
  uint64_t *MapSharedList, MapSharedCount; // those, as fetched (and since forgotten)
  // Of those written, a copy as they came (a twin), to send home only the
  // bytes the thread changed; the diff being built.
  uint8_t *Twins, *Diff;
  uint64_t *TwinAddress;
  uint32_t TwinCount;
  uint32_t MappingCount; // in Mappings, below
  uint64_t *PresentList, *DirtyList;
  uint64_t PresentCount, DirtyCount, ListCapacity;
  FetchStream Streams[FetchStreams];
  uint64_t StreamFaults; // faults that asked for pages: the streams' clock
  // Writes to pages here in order: where the last run made writable at a
  // write ended, and the window it was taken in (memory/RemoteFaults.cpp,
  // markWrittenAhead).
  uint64_t WriteStreamNext;
  uint32_t WriteWindow;
  uint8_t *SyscallBuffer; // a forwarded call's data, both ways
  uint8_t *PageRun;       // home: pages served or taken back, MaxPagesPerRun of them
  void *Held;             // home: the pages each node keeps (RetainedPages.cpp)
  // Home: the userfaultfd that tracks the program's writes and the process
  // that made it (0: none), or why there is none (WrittenPages.h).
  int WriteTrackerFd, WriteTrackerOwner;
  const char *WriteTrackingOff;
  LinkKey Secret;         // home: the key of the nodes it starts
  bool SecretReady;
  uint16_t HomeMachine;
  bool WarnedSyscall[512];

  // The thread's frames as it last arrived in this process, innermost
  // first, for a longjmp from a signal handler (LongJump.cpp).
  ArrivedFrame *Arrived;
  uint32_t ArrivedCount;
  // Remote: the migrating thread's setjmp frames (SetjmpFrames.h); home
  // keeps a thread's in its ThreadState.
  SetjmpFrames Setjmps;

  // Counters, reported by home with POPCORN_LOG=stats: home counts the
  // thread's trips and what it served, a remote node its own side.
  uint64_t Migrations, PagesFetched, PageRequests, PagesReturned, SyscallsForwarded;
  RewriteResult LastRefusal; // why the last move failed with EAGAIN (POPCORN_LOG=verbose)

  // The program's signal actions (signals/SignalState.h).  Home:
  // SignalActionsRead says which count of SignalActionsChanged (above)
  // SignalActions was read at.
  uint64_t SignalActionsRead, HandledSignals;
  KernelSigaction SignalActions[SignalCount];
  // Signals whose handler has SA_RESETHAND: delivering one resets its
  // action in the kernel that delivers it, with no call to see.  Home:
  // as last read; remote: as last taken from home or set here.
  uint64_t ResettingSignals;
  // Home: a signalfd of HandledSignals, which home watches while the
  // thread is on a node it started (AwaySignalOpen: it is open).
  int AwaySignalFd;
  bool AwaySignalOpen, WatchingSignals;
  // Remote: the program's signals home passed on (SignalState.h): held
  // while the thread uses the link (SignalHold: exchanges under way;
  // InFaultHandler: page faults being served) and raised after.
  volatile int SignalHold, InFaultHandler;
  volatile uint64_t HeldSignals;
  // Home: signals that interrupted a call a node forwarded, and those
  // whose action is changed for the call meanwhile (SignalState.h).
  volatile uint64_t InterruptedBy;
  uint64_t NotingSignals;
  // Remote: the thread's signal mask as home last heard of it.
  uint64_t ThreadMaskAtHome;

  // Large tables last, so that a start touches only the first pages of
  // this state (a page fault each, bench/startup.sh): the arena's freed
  // ranges, a node's mappings, the links' receive buffers (Channel.h), the
  // nodes' and, last, the link home's.
  ArenaFreeRange Free[1024];
  NodeMapping Mappings[MaxNodeMappings];
  uint8_t LinkBuffers[MaxNodes + 1][ReceiveAheadBytes];
};

/// This process's state.  __popcorn_start maps it before libc runs (or
/// ends the process), so every system call libc makes can read it.
inline NodeState &node() { return *reinterpret_cast<NodeState *>(NodePrivateBase); }

/// The calling program thread's tid at home, which names it on every node
/// (a node's kernel gives it another).
inline int homeTid() {
  const NodeState &N = node();
  return N.Remote ? N.ThreadTid : int(sys::call6(sys::Gettid, 0));
}

} // namespace popcorn

#endif
