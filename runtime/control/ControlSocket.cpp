//===- ControlSocket.cpp - popcorn-ctl's way into a running program -------===//
//
// Serving the socket must not change what the program sees.  A pthread
// would be one the program can see (musl counts threads: stdio starts
// locking, the program's signals may land on it), and a signal may be one
// the program uses.  So the server is a thread of the kernel's alone: made
// with a raw clone, its own stack, no thread pointer of its own, no libc
// (raw system calls; nothing that touches errno or TLS), every signal
// blocked.  It blocks in accept and read and ends with the process.
//
// It shares the process's descriptor table, as a thread does: a private
// one (no CLONE_FILES) would keep the program's descriptors and the socket
// apart, but qemu-user refuses it and valgrind ends the process on it.  So
// the socket sits at the top of the first 1024 descriptors, close-on-exec,
// and the thread waits in ppoll, never blocked in accept (which reserves
// the lowest free descriptor while it waits): only a connection being
// served holds a low descriptor, for the moment it is served.
//
// Its state is outside the program's data (which moves between nodes):
// in memory mapped for it, found through NodeState.
//
// Nothing of this exists until popcorn-ctl asks (include/popcorn/Control.h):
// most programs are never steered, and scripts run thousands of short
// ones.  The request is a queued signal, so the socket is opened in a
// signal handler, on whichever of the program's threads takes it; all of
// the above is raw system calls already.  A call of the program's that
// the signal interrupts is restarted (SA_RESTART), as for any handler.
//
//===----------------------------------------------------------------------===//
#include "control/ControlSocket.h"
#include "signals/HeldThreads.h"
#include "signals/Steering.h"
#include "state/Emulation.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Signals.h"
#include "support/Syscall.h"
#include "support/Text.h"
#include <popcorn/Control.h>
#include <signal.h>

extern "C" void popcorn_signal_return(void);

using namespace popcorn;

namespace popcorn {

// The socket's name, and who may remove it: a forked child has a copy of
// this but no thread serving it.
struct ControlServer {
  int Listen;
  int Owner;
  int Tid; // the thread serving it
  uint32_t Euid;
  char Path[108]; // sockaddr_un's sun_path
  volatile bool Ended; // its thread is about to end
};

namespace {

static_assert(MaxNodes == POPCORN_CONTROL_MAX_NODES, "the reply has room for every node");
static_assert(NodePrivateBase == POPCORN_CONTROL_STATE_ADDRESS,
              "popcorn-ctl knows a home process by where its state is");
static_assert(POPCORN_CONTROL_OPEN_SIGNAL == ShellSteeringSignal,
              "the request comes on the signal musl keeps from the program");


// The kernel's values, which the sysroot's headers (aarch64's ABI on every
// ISA) do not always have.
constexpr long AtFdcwd = -100, AtSymlinkNoFollow = 0x100;
constexpr long AfUnix = 1, SockStream = 1, SockCloexec = 02000000;
constexpr long SolSocket = 1, SoPeercred = 17, SoRcvtimeo = 20, SoSndtimeo = 21;
constexpr uint64_t StackBytes = 64 * 1024;
constexpr uint64_t SaSiginfo = 4;

struct SocketAddress {
  uint16_t Family;
  char Path[108];
};

// statx's fields up to the mode; the kernel fills all 256 bytes.
struct FileStatus {
  uint32_t Mask, BlockSize;
  uint64_t Attributes;
  uint32_t Links, Uid, Gid;
  uint16_t Mode;
  uint8_t Rest[256 - 30];
};


// Not strerror: it reads libc's locale, which does not exist yet.
const char *errorName(long Error) {
  switch (-Error) {
  case 1: return "operation not permitted";
  case 2: return "no such file or directory";
  case 13: return "permission denied";
  case 20: return "not a directory";
  case 24: return "too many open files";
  case 28: return "no space left on device";
  case 30: return "read-only file system";
  case 36: return "file name too long";
  case sys::Eaddrinuse: return "address in use";
  }
  return "system error";
}

const char *environment(char **Envp, const char *Name) {
  for (; *Envp; Envp++) {
    const char *E = *Envp, *N = Name;
    while (*N && *E == *N)
      E++, N++;
    if (!*N && *E == '=')
      return E + 1;
  }
  return nullptr;
}

bool same(const char *A, const char *B) {
  while (*A && *A == *B)
    A++, B++;
  return *A == *B;
}

// A directory of the user's alone: created mode 0700 if missing, refused
// if another user owns it or others may enter it (they could take the
// socket's name or read it).
bool privateDirectory(const char *Dir, uint32_t Euid, TextBuffer &Why) {
  long R = sys::call6(sys::Mkdirat, AtFdcwd, long(Dir), 0700);
  if (R < 0 && R != -sys::Eexist) {
    Why << "cannot create " << Dir << ": " << errorName(R);
    return false;
  }
  FileStatus S;
  R = sys::call6(sys::Statx, AtFdcwd, long(Dir), AtSymlinkNoFollow, 0x7ff, long(&S));
  if (R < 0) {
    Why << Dir << ": " << errorName(R);
    return false;
  }
  if ((S.Mode & 0170000) != 0040000)
    Why << Dir << " is not a directory";
  else if (S.Uid != Euid)
    Why << Dir << " belongs to another user";
  else if (S.Mode & 077)
    Why << Dir << " is open to other users (it must be mode 0700)";
  else
    return true;
  return false;
}

// Binds Fd to Address; a socket of that name that nobody serves (left by
// a killed process with this PID, or by this image before an exec) is
// replaced.
long bindName(int Fd, const SocketAddress &Address, long Bytes) {
  long R = sys::call6(sys::Bind, Fd, long(&Address), Bytes);
  if (R != -sys::Eaddrinuse)
    return R;
  long Probe = sys::call6(sys::Socket, AfUnix, SockStream | SockCloexec, 0);
  if (Probe < 0)
    return R;
  long Connected = sys::call6(sys::Connect, Probe, long(&Address), Bytes);
  sys::call6(sys::Close, Probe);
  if (Connected != -sys::Econnrefused)
    return R;
  sys::call6(sys::Unlinkat, AtFdcwd, long(Address.Path), 0);
  return sys::call6(sys::Bind, Fd, long(&Address), Bytes);
}

// CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
// CLONE_SYSVSEM: a thread, as the kernel (and valgrind) know them.
constexpr long ThreadFlags = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000;

// Starts Fn(Arg) on a new thread of this process whose stack ends at Top;
// the thread ends when Fn returns.  It inherits the caller's signal mask
// and thread pointer (which it never uses).
long startThread(long Flags, uint8_t *Top, void (*Fn)(void *), void *Arg) {
#if defined(__x86_64__)
  long Ret;
  register long R10 __asm__("r10") = 0;
  register long R8 __asm__("r8") = 0;
  __asm__ volatile("syscall\n\t"
                   "test %%rax, %%rax\n\t"
                   "jnz 1f\n\t"
                   "mov %[arg], %%rdi\n\t"
                   "xor %%ebp, %%ebp\n\t"
                   "call *%[fn]\n\t"
                   "mov $60, %%eax\n\t"
                   "xor %%edi, %%edi\n\t"
                   "syscall\n\t"
                   "1:"
                   : "=a"(Ret)
                   : "a"(sys::Clone), "D"(Flags), "S"(Top), "d"(0L), "r"(R10), "r"(R8),
                     [fn] "r"(Fn), [arg] "r"(Arg)
                   : "rcx", "r11", "memory");
  return Ret;
#else
  register long X8 __asm__("x8") = sys::Clone;
  register long X0 __asm__("x0") = Flags;
  register long X1 __asm__("x1") = long(Top);
  register long X2 __asm__("x2") = 0;
  register long X3 __asm__("x3") = 0;
  register long X4 __asm__("x4") = 0;
  __asm__ volatile("svc 0\n\t"
                   "cbnz x0, 1f\n\t"
                   "mov x0, %[arg]\n\t"
                   "mov x29, xzr\n\t"
                   "blr %[fn]\n\t"
                   "mov x8, #93\n\t"
                   "mov x0, xzr\n\t"
                   "svc 0\n\t"
                   "1:"
                   : "+r"(X0)
                   : "r"(X8), "r"(X1), "r"(X2), "r"(X3), "r"(X4), [fn] "r"(Fn), [arg] "r"(Arg)
                   : "x30", "memory");
  return X0;
#endif
}

//===-- The server thread --------------------------------------------------===//

bool alive(int Pid) {
  char Path[32];
  TextBuffer(Path, sizeof Path) << "/proc/" << int64_t(Pid) << "/stat";
  long Fd = sys::openForReading(Path);
  if (Fd < 0)
    return false;
  char Stat[512];
  long N = sys::call6(sys::Read, Fd, long(Stat), sizeof Stat);
  sys::call6(sys::Close, Fd);
  // "PID (COMMAND) STATE ...": the command may hold any character.
  long Close = -1;
  for (long I = 0; I < N; I++)
    if (Stat[I] == ')')
      Close = I;
  return Close >= 0 && Close + 2 < N && Stat[Close + 2] != 'Z' && Stat[Close + 2] != 'X';
}

// Where a node on another host is, as POPCORN_NODES names it.
void describeHost(const NodeEntry &E, char *Out, uint32_t Room) {
  TextBuffer Host(Out, Room);
  bool Ipv6 = false;
  for (const char *C = E.Host; *C; C++)
    Ipv6 |= *C == ':';
  if (E.How == Launcher::Ssh)
    Host << E.Host;
  else if (Ipv6)
    Host << "[" << E.Host << "]:" << uint64_t(E.Port);
  else
    Host << E.Host << ":" << uint64_t(E.Port);
}

// A /proc/self/task entry's thread id, 0 if it is not one.
int numberOf(const char *Name) {
  uint64_t Tid;
  return readUnsigned(Name, 0x7fffffff, Tid) && !*Name ? int(Tid) : 0;
}

// Whether kernel thread Tid of this process is one of the program's: not
// the thread serving this socket, nor one of qemu's.
bool programThread(int Tid) {
  NodeState &N = node();
  if (Tid <= 0 || Tid == sys::call6(sys::Gettid, 0))
    return false;
  // Before its first pthread_create the program's one thread is the main
  // one: under qemu-user, the others are qemu's (noteQemuThreads).
  if (!N.QemuThreadsKnown)
    return Tid == sys::call6(sys::Getpid, 0);
  for (int Qemu : N.QemuThreads)
    if (Qemu == Tid)
      return false;
  return true;
}

// Calls Visit(Tid) for each of the program's threads.
template <class Visitor> void forEachProgramThread(Visitor Visit) {
  sys::forEachEntry("/proc/self/task", [&](const char *Name) {
    if (int Tid = numberOf(Name); programThread(Tid))
      Visit(Tid);
  });
}

void listThreads(popcorn_control_reply &R) {
  int Away = node().Departing;
  R.thread_count = 0;
  bool AwayListed = false;
  forEachProgramThread([&](int Tid) {
    uint32_t I = R.thread_count++;
    if (I >= POPCORN_CONTROL_MAX_THREADS) {
      if (Tid != Away || AwayListed)
        return;
      I = POPCORN_CONTROL_MAX_THREADS - 1; // the one away takes the last place
    }
    R.threads[I] = {Tid, nodeOfThread(Tid)};
    AwayListed |= Tid == Away;
  });
}

void fillStatus(popcorn_control_reply &R) {
  NodeState &N = node();
  int Where = N.ThreadNode;
  R.pid = int32_t(sys::call6(sys::Getpid, 0));
  R.thread_node = Where;
  R.thread_machine = N.Nodes[Where].Machine;
  R.node_count = uint16_t(N.NodeCount);
  R.requested_node = steeredDestination();
  R.migrations = N.Migrations;
  R.pages_fetched = N.PagesFetched;
  R.pages_returned = N.PagesReturned;
  R.syscalls_forwarded = N.SyscallsForwarded;
  for (int I = 0; I < N.NodeCount; I++) {
    const NodeEntry &E = N.Nodes[I];
    popcorn_control_node &Out = R.nodes[I];
    Out.elf_machine = E.Machine;
    if (E.remote()) {
      // No process of this host's (an ssh node's is ssh): the link is
      // what home has of it.
      Out.launcher = E.How == Launcher::Ssh ? POPCORN_LAUNCHER_SSH : POPCORN_LAUNCHER_TCP;
      Out.pid = 0;
      Out.started = E.Link.Fd >= 0;
      Out.alive = Out.started && !E.Link.peerGone();
      describeHost(E, Out.host, sizeof Out.host);
      continue;
    }
    Out.pid = I == 0 ? R.pid : E.Pid;
    Out.started = I == 0 || E.Pid > 0;
    // How a started process runs (home's own ISA may run under qemu, and
    // the other natively: StartNodes.cpp), else how it is meant to.
    bool Qemu = I == 0       ? homeRunsEmulated()
                : Out.started ? E.Emulated
                              : E.How == Launcher::Qemu;
    Out.launcher = Qemu ? POPCORN_LAUNCHER_QEMU : POPCORN_LAUNCHER_NATIVE;
    Out.alive = I == 0 || (E.Pid > 0 && alive(E.Pid));
  }
  listThreads(R);
}

// "thread TID", or Unnamed for a request that names none.
TextBuffer &nameThread(TextBuffer &Message, int Tid, const char *Unnamed = "the thread") {
  if (Tid)
    return Message << "thread " << int64_t(Tid);
  return Message << Unnamed;
}

void migrate(const popcorn_control_request &Q, popcorn_control_reply &R, TextBuffer &Message) {
  NodeState &N = node();
  int Tid = Q.tid;
  if (Tid) {
    bool Found = false;
    forEachProgramThread([&](int Each) { Found |= Each == Tid; });
    if (!Found) {
      R.error = 3; // ESRCH
      Message << "no thread " << int64_t(Tid) << " in process " << int64_t(R.pid);
      return;
    }
  }
  int Where = nodeOfThread(Tid);
  int Target = Q.node;
  const char *Isa = Target >= 0 && Target < N.NodeCount ? isaName(N.Nodes[Target].Machine) : "";
  switch (steerThread(Target, Tid)) {
  case SteerResult::Requested:
    nameThread(Message, Tid) << " moves to node " << int64_t(Target) << " (" << Isa
                             << ") at its next migration point";
    if (int Away = N.Departing; Away && Away != Tid)
      Message << ", once thread " << int64_t(Away) << " is back from node "
              << int64_t(N.ThreadNode);
    return;
  case SteerResult::Waiting:
    R.error = 16; // EBUSY
    nameThread(Message << "the move of ", N.SteeredTid, "a thread")
        << " to node " << int64_t(N.SteeredNode - 1)
            << " waits to be taken; ask again once it has moved";
    return;
  case SteerResult::Signalled:
    Message << "asked node " << int64_t(Where) << " (pid " << int64_t(N.Nodes[Where].Pid)
            << "), where the thread is, to move it to node " << int64_t(Target) << " (" << Isa
            << ")";
    return;
  case SteerResult::NoSuchNode:
    R.error = 22; // EINVAL
    Message << "no node " << int64_t(Target) << ": this program's nodes are 0 to "
            << int64_t(N.NodeCount - 1);
    return;
  case SteerResult::AlreadyThere:
    R.error = 114; // EALREADY
    nameThread(Message, Tid) << " is already on node " << int64_t(Target) << " (" << Isa << ")";
    return;
  case SteerResult::Relayed: {
    char Host[64];
    describeHost(N.Nodes[Where], Host, sizeof Host);
    Message << "asked node " << int64_t(Where) << " ("
            << (N.Nodes[Where].How == Launcher::Ssh ? "ssh:" : "tcp:")
            << static_cast<const char *>(Host)
            << "), where the thread is, over its link to move it to node " << int64_t(Target)
            << " (" << Isa << ")";
    return;
  }
  case SteerResult::NotLocal:
    R.error = 113; // EHOSTUNREACH
    Message << "node " << int64_t(Where) << ", where the thread is, cannot be reached";
    return;
  case SteerResult::SignalFailed:
    R.error = 3; // ESRCH
    Message << "cannot signal node " << int64_t(Where) << "'s process (pid "
            << int64_t(N.Nodes[Where].Pid) << ")";
    return;
  }
}

// Bytes from Fd, all of them; false at end of stream, error or timeout.
bool readAll(int Fd, void *Into, uint32_t Bytes, uint32_t &Got) {
  Got = 0;
  while (Got < Bytes) {
    long N = sys::call6(sys::Read, Fd, long(static_cast<char *>(Into) + Got), Bytes - Got);
    if (N == -sys::Eintr)
      continue;
    if (N <= 0)
      return false;
    Got += uint32_t(N);
  }
  return true;
}

void answer(ControlServer &S, int Fd) {
  popcorn_control_reply R = {};
  R.magic = POPCORN_CONTROL_MAGIC;
  R.size = sizeof R;
  R.version = POPCORN_CONTROL_VERSION;
  TextBuffer Message(R.message, sizeof R.message);
  // A client that says nothing must not hold the server for long.
  struct {
    long Seconds, Microseconds;
  } Timeout = {2, 0};
  sys::call6(sys::Setsockopt, Fd, SolSocket, SoRcvtimeo, long(&Timeout), sizeof Timeout);
  sys::call6(sys::Setsockopt, Fd, SolSocket, SoSndtimeo, long(&Timeout), sizeof Timeout);
  struct {
    int32_t Pid;
    uint32_t Uid, Gid;
  } Peer;
  uint32_t PeerBytes = sizeof Peer;
  popcorn_control_request Q = {};
  uint32_t Got;
  fillStatus(R);
  if (sys::call6(sys::Getsockopt, Fd, SolSocket, SoPeercred, long(&Peer), long(&PeerBytes)) != 0 ||
      Peer.Uid != S.Euid) {
    R = {R.magic, R.size, R.version, 13 /* EACCES */, {}, R.pid};
    TextBuffer(R.message, sizeof R.message) << "permission denied: another user's process";
  } else if (!readAll(Fd, &Q, 8, Got)) {
    R.error = 22;
    Message << "malformed request: " << int64_t(Got) << " bytes";
  } else if (Q.magic != POPCORN_CONTROL_MAGIC) {
    R.error = 22;
    Message << "malformed request: not popcorn-ctl's";
  } else if (Q.size != sizeof Q) {
    R.error = 22;
    Message << "malformed request: it says " << int64_t(Q.size) << " bytes, expected "
            << int64_t(sizeof Q);
  } else if (!readAll(Fd, reinterpret_cast<char *>(&Q) + 8, sizeof Q - 8, Got)) {
    R.error = 22;
    Message << "malformed request: " << int64_t(Got + 8) << " of " << int64_t(sizeof Q)
            << " bytes";
  } else if (Q.version != POPCORN_CONTROL_VERSION) {
    R.error = 22;
    Message << "request of protocol version " << int64_t(Q.version) << ", this program speaks "
            << int64_t(POPCORN_CONTROL_VERSION);
  } else if (Q.type == POPCORN_CONTROL_STATUS) {
    Message << "ok";
  } else if (Q.type == POPCORN_CONTROL_MIGRATE) {
    migrate(Q, R, Message);
    fillStatus(R);
  } else {
    R.error = 22;
    Message << "unknown request type " << int64_t(Q.type);
  }
  const char *P = reinterpret_cast<const char *>(&R);
  for (uint32_t Sent = 0; Sent < sizeof R;) {
    long N = sys::call6(sys::Write, Fd, long(P + Sent), sizeof R - Sent);
    if (N == -sys::Eintr)
      continue;
    if (N <= 0)
      return;
    Sent += uint32_t(N);
  }
}

void serveRequests(ControlServer &S) {
  for (;;) {
    // Not blocked in accept: that holds a descriptor (see the top).
    struct {
      int Fd;
      short Events, Returned;
    } Wait = {S.Listen, 1 /* POLLIN */, 0};
    long Ready = sys::call6(sys::Ppoll, long(&Wait), 1, 0, 0, 8);
    // Moved meanwhile, out of the way of the program's dup2 (HomeNode.cpp:
    // moveRuntimeDescriptor): the same socket under another number.
    if (Ready == -sys::Eintr || Ready == 0 || Wait.Fd != S.Listen)
      continue;
    if (Ready < 0 || (Wait.Returned & 0x20 /* POLLNVAL */))
      return; // the program closed or replaced a shared descriptor
    long Fd = sys::call6(sys::Accept4, Wait.Fd, 0, 0, SockCloexec | 04000 /* SOCK_NONBLOCK */);
    if (Fd < 0 && Wait.Fd != S.Listen)
      continue;
    if (Fd == -sys::Eintr || Fd == -sys::Econnaborted || Fd == -sys::Eagain)
      continue;
    if (Fd == -24 || Fd == -23 || Fd == -105 || Fd == -12) {
      // Out of descriptors or memory for now: the program's, not ours.
      struct {
        long Seconds, Nanoseconds;
      } Pause = {0, 100000000};
      sys::call6(sys::Nanosleep, long(&Pause), 0);
      continue;
    }
    if (Fd < 0)
      return; // the program closed or replaced the descriptor: nothing to serve
    // Blocking again, within the timeouts answer sets.
    sys::call6(sys::Fcntl, Fd, 4 /* F_SETFL */, 0);
    answer(S, int(Fd));
    sys::call6(sys::Close, Fd);
  }
}

void serve(void *Arg) {
  ControlServer &S = *static_cast<ControlServer *>(Arg);
  serveRequests(S);
  S.Ended = true;
}

void openControlSocket(char **Envp) {
  const char *Log = environment(Envp, "POPCORN_LOG");
  bool Quiet = Log && same(Log, "quiet");
  uint32_t Euid = uint32_t(sys::call6(sys::Geteuid, 0));
  int Pid = int(sys::call6(sys::Getpid, 0));

  char Dir[96], Why[200];
  TextBuffer DirText(Dir, sizeof Dir), WhyText(Why, sizeof Why);
  if (const char *Runtime = environment(Envp, "XDG_RUNTIME_DIR"); Runtime && *Runtime)
    DirText << Runtime << "/" << POPCORN_CONTROL_DIR_NAME;
  else
    DirText << "/tmp/popcorn-" << int64_t(Euid);

  SocketAddress Address = {uint16_t(AfUnix), {}};
  TextBuffer PathText(Address.Path, sizeof Address.Path);
  PathText << Dir << "/" << int64_t(Pid);
  long Bytes = long(sizeof Address.Family + PathText.length() + 1);
  long Fd = -1;
  uint8_t *Memory = nullptr;
  do {
    if (DirText.length() + 1 >= sizeof Dir || PathText.length() + 1 >= sizeof Address.Path) {
      WhyText << Dir << ": the name is too long for a socket";
      break;
    }
    if (!privateDirectory(Dir, Euid, WhyText))
      break;
    Fd = sys::outOfTheWay(sys::call6(sys::Socket, AfUnix, SockStream | SockCloexec, 0));
    if (Fd < 0) {
      WhyText << "cannot make a socket: " << errorName(Fd);
      break;
    }
    long R = bindName(int(Fd), Address, Bytes);
    if (R == 0)
      R = sys::call6(sys::Listen, Fd, 8);
    if (R != 0) {
      WhyText << Address.Path << ": " << errorName(R);
      break;
    }
    Memory = sys::mapWithGuard(StackBytes + sizeof(ControlServer));
    if (!Memory) {
      WhyText << "no memory for its thread";
      break;
    }
    auto *Server = reinterpret_cast<ControlServer *>(Memory + StackBytes);
    Server->Listen = int(Fd);
    Server->Owner = Pid;
    Server->Euid = Euid;
    for (uint32_t I = 0; I < sizeof Server->Path; I++)
      Server->Path[I] = Address.Path[I];
    // Every signal blocked in the thread: the program's handlers run on
    // its own threads only.
    uint64_t All = ~uint64_t(0), Old;
    sys::call6(sys::RtSigprocmask, 2 /* SIG_SETMASK */, long(&All), long(&Old), 8);
    R = startThread(ThreadFlags, Memory + StackBytes, serve, Server);
    sys::call6(sys::RtSigprocmask, 2, long(&Old), 0, 8);
    Server->Tid = int(R);
    if (R < 0) {
      sys::call6(sys::Unlinkat, AtFdcwd, long(Address.Path), 0);
      WhyText << "cannot start its thread: " << errorName(R);
      break;
    }
    node().Control = Server;
    return;
  } while (false);
  if (Fd >= 0)
    sys::call6(sys::Close, Fd);
  if (!Quiet)
    Line() << "popcorn: no control socket, popcorn-ctl cannot reach this process: " << Why;
}

bool isOpenRequest(const siginfo_t &Info) {
  return Info.si_code == SiQueue && Info.si_value.sival_int == POPCORN_CONTROL_OPEN_VALUE;
}

// Two popcorn-ctl at once may ask at once, and their signals may land on
// two threads: one opens the socket, the other has nothing to do.
void onControlSignal(int Signal, siginfo_t *Info, void *) {
  NodeState &N = node();
  if (waitIfHeld(*Info))
    return;
  if (!isOpenRequest(*Info)) {
    if (N.ShellSignalTrigger)
      N.ShellSignalTrigger(Signal);
    return;
  }
  const char *Setting = environment(N.StartEnvironment, "POPCORN_CONTROL");
  if ((Setting && same(Setting, "off")) ||
      __atomic_exchange_n(&N.ControlOpening, true, __ATOMIC_ACQUIRE))
    return;
  if (!controlThreadRuns())
    openControlSocket(N.StartEnvironment);
  __atomic_store_n(&N.ControlOpening, false, __ATOMIC_RELEASE);
}

} // namespace

void noteQemuThreads() {
  NodeState &N = node();
  if (N.QemuThreadsKnown)
    return;
  N.QemuThreadsKnown = true;
  if (!homeRunsEmulated())
    return;
  int Self = int(sys::call6(sys::Gettid, 0)), Count = 0;
  sys::forEachEntry("/proc/self/task", [&](const char *Name) {
    int Tid = numberOf(Name);
    if (Tid && Tid != Self && Tid != (N.Control ? N.Control->Tid : 0) && Count < 4)
      N.QemuThreads[Count++] = Tid;
  });
}

void awaitControlRequests(char **Envp) {
  node().StartEnvironment = Envp;
  KernelSigaction Action = {uint64_t(onControlSignal), SaRestart | SaRestorer | SaSiginfo,
                            uint64_t(popcorn_signal_return), 0};
  sys::call6(sys::RtSigaction, ShellSteeringSignal, long(&Action), 0, 8);
}

void setShellSignalTrigger(void (*Trigger)(int)) { node().ShellSignalTrigger = Trigger; }

bool controlThreadRuns() {
  ControlServer *S = node().Control;
  return S && S->Owner == sys::call6(sys::Getpid, 0) && !S->Ended;
}

void controlSocketMoved(int Fd) {
  if (ControlServer *S = node().Control)
    __atomic_store_n(&S->Listen, Fd, __ATOMIC_RELEASE);
}

int controlSocketDescriptor() {
  ControlServer *S = node().Control;
  return S ? S->Listen : -1;
}

void closeControlSocket() {
  ControlServer *S = node().Control;
  if (S && S->Owner == sys::call6(sys::Getpid, 0))
    sys::call6(sys::Unlinkat, AtFdcwd, long(S->Path), 0);
}

} // namespace popcorn
