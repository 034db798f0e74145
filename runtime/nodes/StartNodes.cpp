//===- StartNodes.cpp - Home reads the node table and starts the nodes ----===//
//
// A node starts when the thread first goes there: a process of this
// machine home spawns (natively or under qemu-user) with a socket pair,
// or a popcorn-node it connects to over TCP, or starts on another host
// through ssh (RemoteLauncher.h), and sends the image.  Either
// way the link is authenticated first, then home greets the node with
// the ranges it must reserve, and the node answers Ready.
//
//===----------------------------------------------------------------------===//
#include "nodes/StartNodes.h"
#include "link/Authentication.h"
#include "link/KeyFile.h"
#include "nodes/RemoteLauncher.h"
#include "memory/RetainedPages.h"
#include "memory/WrittenPages.h"
#include "state/ExecutableFile.h"
#include "state/ScheduleSettings.h"
#include "state/Settings.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include "syscalls/SystemCalls.h"
#include "trace/Trace.h"
#include <arpa/inet.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <unistd.h>

// popcorn-ld's layout: this ISA's private range.
extern "C" char __popcorn_private_start[], __popcorn_private_end[];

namespace popcorn {

char StartFailure[320];

namespace {
constexpr uint16_t Here = sys::Here;

// The "LOW-HIGH" that starts a line of /proc/self/maps.  Not sscanf: it
// would link musl's whole scanf into every program.
static bool mapsRange(const char *Line, unsigned long &Low, unsigned long &High) {
  char *End;
  Low = strtoul(Line, &End, 16);
  if (End == Line || *End != '-')
    return false;
  const char *Rest = End + 1;
  High = strtoul(Rest, &End, 16);
  return End != Rest;
}

// What the other nodes reserve: home's shared data segment, the arena and
// the top of home's stack (arguments, environment).  Not the writable part
// of home's private range (popcorn-ld's layout): each process keeps its
// own, as a node of another ISA must, and a node of home's ISA can: an
// aarch64 node reads its .got there before it could fetch a page.
// How far the main thread's stack may grow, as the node reserves it.
uint64_t mainStackReach() {
  struct rlimit Limit;
  uint64_t Bytes = 8 << 20;
  if (!getrlimit(RLIMIT_STACK, &Limit) && Limit.rlim_cur < Bytes)
    Bytes = pageUp(Limit.rlim_cur);
  return Bytes;
}

uint16_t sharedRanges(AddressRange *Out, uint64_t StackHigh) {
  uint16_t Count = 0;
  auto *Phdr = reinterpret_cast<const Elf64_Phdr *>(getauxval(AT_PHDR));
  AddressRange Private = {uint64_t(__popcorn_private_start), uint64_t(__popcorn_private_end)};
  for (unsigned long I = 0; I < getauxval(AT_PHNUM) && Count < MaxSharedRanges - 2; I++)
    if (Phdr[I].p_type == PT_LOAD && (Phdr[I].p_flags & PF_W) &&
        !Private.contains(Phdr[I].p_vaddr))
      Out[Count++] = {pageDown(Phdr[I].p_vaddr), pageUp(Phdr[I].p_vaddr + Phdr[I].p_memsz)};
  Out[Count++] = {ArenaBase, ArenaBase + ArenaBytes};
  // Read with open and read, not stdio: fopen would allocate in the
  // program's heap, and malloc could map its metadata where the program
  // had just unmapped memory (tests/programs/munmap.c).
  int Fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  char Buf[4096];
  uint64_t Used = 0;
  unsigned long Low, High;
  for (long Got; Fd >= 0 && (Got = read(Fd, Buf + Used, sizeof Buf - 1 - Used)) > 0;) {
    Used += uint64_t(Got);
    Buf[Used] = 0;
    char *Line = Buf;
    for (char *Newline; (Newline = strchr(Line, '\n')); Line = Newline + 1) {
      *Newline = 0;
      // The node runs the main thread at its own addresses (StackHigh):
      // what lies above its base frame is shared.  Else the main thread's
      // stack is shared whole, as far as it may grow: other threads use
      // what it holds (musl's condition variables keep their waiters
      // there).
      if (!strstr(Line, "[stack]") || !mapsRange(Line, Low, High) || Count == MaxSharedRanges)
        continue;
      if (StackHigh > Low && StackHigh <= High)
        Out[Count++] = {pageDown(StackHigh), High};
      else if (!StackHigh)
        Out[Count++] = {High - mainStackReach(), High};
    }
    Used = uint64_t(Buf + Used - Line);
    memmove(Buf, Line, Used);
    if (Used == sizeof Buf - 1) // a line longer than the buffer: not the stack's
      Used = 0;
  }
  if (Fd >= 0)
    close(Fd);
  return Count;
}

// Keeps the parts of the reason for the warning; false.
template <class... Parts> bool failStart(const Parts &...Part) {
  TextBuffer Why(StartFailure, sizeof StartFailure);
  (Why << ... << Part);
  return false;
}
} // namespace

// Node E's process ends (if home started it) and its link closes.
void stopNode(NodeEntry &E) {
  if (E.Link.Fd >= 0)
    close(E.Link.Fd);
  E.Link.open(-1);
  if (E.Pid > 0) {
    kill(E.Pid, SIGKILL);
    waitpid(E.Pid, nullptr, 0);
  }
  E.Pid = 0;
  forgetLauncherErrors(E);
}

bool nodeEnded(NodeEntry &E, TextBuffer &Why) {
  int Status;
  // An ssh node's process here is its launcher: the node ends with it.
  if (E.Pid > 0 && waitpid(E.Pid, &Status, WNOHANG) == E.Pid) {
    E.Pid = 0;
    Why << (E.How == Launcher::Ssh ? "its ssh" : "it");
    if (WIFSIGNALED(Status))
      Why << " was killed by signal " << uint64_t(WTERMSIG(Status));
    else
      Why << " exited with status " << uint64_t(WEXITSTATUS(Status));
    return true;
  }
  if (!E.Link.peerGone())
    return false;
  // popcorn-node's last word on the link, when a signal killed the node.
  MessageHeader H;
  NodeEndedMessage Ended;
  if (E.Link.receiveHeader(H, 0) && H.Type == MessageType::NodeEnded &&
      H.Bytes == sizeof Ended && E.Link.receivePayload(&Ended, sizeof Ended) &&
      WIFSIGNALED(Ended.WaitStatus))
    Why << "it was killed by signal " << uint64_t(WTERMSIG(Ended.WaitStatus));
  else
    Why << "its link closed";
  return true;
}

// What home keeps of a node's last life that a new one must not inherit.
static void forgetLink(NodeEntry &E) {
  E.Link.open(-1);
  E.Pid = 0;
  forgetLauncherErrors(E);
  E.SignalActionsSent = 0;
  E.StackAtHome = false;
}

void forgetEndedNode(int Id) {
  NodeEntry &E = node().Nodes[Id];
  stopNode(E);
  forgetLink(E);
  forgetHeld(Id);
}

namespace {
// Appends to Out ",FD" for each of the program's descriptors a process
// started now would inherit (3 and up, without close-on-exec), but those
// of Keep.  A node that kept one would, for one, hold a pipe's write end
// after the program closed its own, and the reader would wait for ever
// for the end of the data (m4's esyscmd, when the thread first left home
// while its child ran).
void listInherited(TextBuffer &Out, uint32_t Room, const int *Keep, int KeepCount) {
  sys::forEachEntry("/proc/self/fd", [&](const char *Name) {
    int Fd = atoi(Name);
    bool Kept = Fd < 3 || fcntl(Fd, F_GETFD) != 0; // the directory's own is close-on-exec
    for (int I = 0; I < KeepCount; I++)
      Kept |= Fd == Keep[I];
    char Item[16];
    TextBuffer Text(Item, sizeof Item);
    Text << "," << Fd;
    if (!Kept && Out.length() + Text.length() < Room) // whole numbers only
      Out << Item;
  });
}

// A descriptor of this executable's image for ISA Machine: the file itself
// for its own ISA (which qemu-user, when it runs this process, answers
// for /proc/self/exe), a memory file for another's.
int imageOf(uint16_t Machine) {
  // Inherited by the node, as the memory file is: closed once it started.
  return Machine == Here ? open("/proc/self/exe", O_RDONLY) : ExecutableFile().copyImage(Machine);
}

// Starts the image at Path as E's process: run by the kernel if this
// machine runs E's ISA, else (the kernel says ENOEXEC) under qemu-user.
// Tried, not assumed: home may itself run under qemu-user, and its own
// ISA then needs qemu as much as another does.  Returns posix_spawn's
// error; E.Emulated says which way it went.
int spawnImage(pid_t &Pid, NodeEntry &E, char *Path, const posix_spawnattr_t *Attributes,
               char **Envp) {
  char *Argv[] = {Path, nullptr};
  E.Emulated = false;
  int Error = posix_spawn(&Pid, Path, nullptr, Attributes, Argv, Envp);
  if (Error != ENOEXEC)
    return Error;
  char Qemu[32];
  TextBuffer(Qemu, sizeof Qemu) << "qemu-" << isaName(E.Machine);
  char *QemuArgv[] = {Qemu, Path, nullptr};
  E.Emulated = true;
  // With address randomization off for the program (gdb, setarch -R),
  // qemu-user's own stack would be where home's is, whose top holds the
  // program's arguments: qemu runs randomized, as it is inherited from
  // this process at the exec (and only read there).  A native node leaves
  // its first stack before it takes home's (nodes/RemoteNode.cpp: startNode).
  constexpr unsigned long NoRandomize = 0x0040000, Query = 0xffffffff;
  int Persona = personality(Query);
  bool Randomize = Persona != -1 && (Persona & NoRandomize);
  if (Randomize)
    personality(static_cast<unsigned long>(Persona) & ~NoRandomize);
  Error = posix_spawnp(&Pid, Qemu, nullptr, Attributes, QemuArgv, Envp);
  if (Randomize)
    personality(static_cast<unsigned long>(Persona));
  return Error;
}

// A process of this executable's image for E's ISA as node Id: linked to
// home by a socket pair, the key in a pipe read once at its start.
bool spawnNode(int Id, NodeEntry &E, const LinkKey &Key) {
  int Link[2], KeyPipe[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Link))
    return failStart("no socket: ", strerror(errno));
  if (pipe2(KeyPipe, O_CLOEXEC)) {
    close(Link[0]);
    close(Link[1]);
    return failStart("no pipe: ", strerror(errno));
  }
  bool KeyWritten = write(KeyPipe[1], Key.Bytes, sizeof Key.Bytes) == sizeof Key.Bytes;
  close(KeyPipe[1]);
  // Not where the program's standard streams are (it may have started
  // with them closed); the node's ends without close-on-exec.
  int Image = int(sys::aboveStdio(imageOf(E.Machine), true));
  if (Image < 0) {
    close(KeyPipe[0]);
    close(Link[0]);
    close(Link[1]);
    return failStart("the ", isaName(E.Machine),
                     " image of this executable is missing or damaged (popcorn-inspect verify says "
                     "which)");
  }
  Link[0] = int(sys::outOfTheWay(Link[0]));
  int ChildLink = fcntl(Link[1], F_DUPFD, 3), ChildKey = fcntl(KeyPipe[0], F_DUPFD, 3);
  char Path[64], Env[1024];
  TextBuffer(Path, sizeof Path) << "/proc/self/fd/" << Image;
  // The node closes the program's descriptors it inherits, listed after
  // its own (":FD,FD..."); past the buffer's room (a hundred or so), the
  // rest stay open.
  char Inherited[sizeof Env - 64];
  TextBuffer List(Inherited, sizeof Inherited);
  int Keep[] = {ChildLink, ChildKey, Image};
  listInherited(List, sizeof Inherited, Keep, 3);
  TextBuffer NodeSetting(Env, sizeof Env);
  NodeSetting << "POPCORN_NODE=" << Id << ":" << ChildLink << ":" << ChildKey;
  if (List.length())
    NodeSetting << ":" << Inherited + 1; // without its first comma
  // The node's environment: its link, and qemu's own settings
  // (QEMU_STRACE, QEMU_LOG...) for whoever debugs it.
  char *Envp[16] = {Env};
  int Count = 1;
  for (char **V = environ; *V && Count < 15; V++)
    if (!strncmp(*V, "QEMU_", 5))
      Envp[Count++] = *V;
  // The node is a process group of its own: a signal for the program's
  // process group (the terminal's SIGINT, kill(0, ...)) reaches home alone,
  // which runs the handler once the thread is there.  In home's group the
  // node ran the handler too, and the signal was taken twice.
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  posix_spawnattr_setflags(&Attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&Attributes, 0);
  pid_t Pid = -1;
  E.Emulated = false;
  int Error = !KeyWritten || ChildLink < 0 || ChildKey < 0
                  ? EMFILE
                  : spawnImage(Pid, E, Path, &Attributes, Envp);
  posix_spawnattr_destroy(&Attributes);
  int Opened[] = {Link[1], KeyPipe[0], ChildLink, ChildKey, Image};
  for (int Fd : Opened)
    if (Fd >= 0)
      close(Fd);
  if (Error) {
    close(Link[0]);
    if (!E.Emulated)
      return failStart("cannot run ", Path, ": ", strerror(Error));
    if (Error == ENOENT)
      return failStart("qemu-", isaName(E.Machine), " is not installed");
    return failStart("cannot run qemu-", isaName(E.Machine), ": ", strerror(Error));
  }
  E.Pid = Pid;
  E.Link.open(Link[0]);
  return true;
}

// A connection to popcorn-node at E's address and port, within the
// timeout.  Addresses only: a resolver would link musl's DNS client into
// every program.
bool connectNode(NodeEntry &E) {
  sockaddr_in6 Address6 = {};
  sockaddr_in Address4 = {};
  sockaddr *Address;
  socklen_t Bytes;
  if (inet_pton(AF_INET, E.Host, &Address4.sin_addr) == 1) {
    Address4.sin_family = AF_INET;
    Address4.sin_port = htons(E.Port);
    Address = reinterpret_cast<sockaddr *>(&Address4), Bytes = sizeof Address4;
  } else if (inet_pton(AF_INET6, E.Host, &Address6.sin6_addr) == 1) {
    Address6.sin6_family = AF_INET6;
    Address6.sin6_port = htons(E.Port);
    Address = reinterpret_cast<sockaddr *>(&Address6), Bytes = sizeof Address6;
  } else {
    return failStart("'", E.Host, "' is not an IPv4 or IPv6 address (names are not resolved)");
  }
  int Fd = int(sys::outOfTheWay(socket(Address->sa_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)));
  if (Fd < 0)
    return failStart("no socket: ", strerror(errno));
  pollfd Poll = {Fd, POLLOUT, 0};
  int Error = 0;
  socklen_t Size = sizeof Error;
  if (connect(Fd, Address, Bytes) == 0)
    Error = 0;
  else if (errno != EINPROGRESS)
    Error = errno;
  else if (poll(&Poll, 1, node().TimeoutMs) != 1)
    Error = ETIMEDOUT;
  else if (getsockopt(Fd, SOL_SOCKET, SO_ERROR, &Error, &Size))
    Error = errno;
  if (Error) {
    close(Fd);
    return failStart("cannot connect to ", E.Host, ":", uint64_t(E.Port), ": ", strerror(Error));
  }
  fcntl(Fd, F_SETFL, fcntl(Fd, F_GETFL) & ~O_NONBLOCK);
  configureTcpLink(Fd, node().TimeoutMs);
  E.Link.open(Fd);
  return true;
}

// popcorn-node runs the image of E's ISA for this program: this executable
// itself for this ISA.
bool sendImage(int Id, NodeEntry &E) {
  int Image = E.Machine == Here ? open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
                                : ExecutableFile().copyImage(E.Machine);
  struct stat St;
  if (Image < 0 || fstat(Image, &St)) {
    if (Image >= 0)
      close(Image);
    return failStart("no ", isaName(E.Machine), " image in this executable");
  }
  void *Bytes = mmap(nullptr, size_t(St.st_size), PROT_READ, MAP_PRIVATE, Image, 0);
  close(Image);
  if (Bytes == MAP_FAILED)
    return failStart("cannot map the ", isaName(E.Machine), " image: ", strerror(errno));
  ImageMessage M = {E.Machine, uint16_t(Id), 0};
  bool Sent = E.Link.send2(MessageType::Image, &M, sizeof M, Bytes, uint32_t(St.st_size));
  munmap(Bytes, size_t(St.st_size));
  return Sent || failStart("the link broke while sending the image");
}

// How many processes a node gets to find home's addresses free.
constexpr int MaxNodeAttempts = 4;

// How a node answered home's greeting.
enum class Greeting { Ready, Failed, AddressTaken };

// Authenticates the node, greets it and waits for it to be ready.
Greeting greetNode(int Id, NodeEntry &E, const LinkKey &Key, const StackRegion &Stack) {
  NodeState &N = node();
  E.Link.TimeoutMs = N.TimeoutMs;
  switch (authenticateNode(E.Link, Key)) {
  case AuthResult::Accepted:
    break;
  case AuthResult::Refused:
    failStart("it failed authentication (",
              E.remote() ? "another key file than this one?" : "not the process home started", ")");
    return Greeting::Failed;
  case AuthResult::Lost:
    failStart(E.Link.TimedOut ? "no answer within the timeout" : "it went away",
              " during authentication");
    return Greeting::Failed;
  }
  if (E.remote() && !sendImage(Id, E))
    return Greeting::Failed;
  // A node home starts ends with the thread that started it (the kernel's
  // parent-death signal is a thread's): only the main thread's may end
  // with the program; others watch their link, as a remote node does.
  bool ChildOfHome = !E.remote() && getpid() == gettid();
  HelloMessage Hello = {uint32_t(getpid()), Here, 0, {}, uint16_t(N.NodeCount), {},
                        uint32_t(N.TimeoutMs), uint32_t(ChildOfHome)};
  Hello.Ranges = sharedRanges(Hello.Shared, Stack.High);
  Hello.Trace = tracing();
  Hello.HomeStack = Stack;
  for (int I = 0; I < N.NodeCount; I++)
    Hello.NodeMachines[I] = N.Nodes[I].Machine;
  MessageHeader H;
  if (!E.Link.send(MessageType::Hello, &Hello, sizeof Hello) ||
      !E.Link.receiveHeader(H, N.TimeoutMs)) {
    failStart(E.Link.TimedOut ? "no answer within the timeout" : "it ended", " before it was ready");
    return Greeting::Failed;
  }
  ReadyMessage Ready;
  if (H.Type == MessageType::Ready && H.Bytes == sizeof Ready &&
      E.Link.receivePayload(&Ready, sizeof Ready)) {
    E.StackAtHome = Ready.StackAtHome;
    return Greeting::Ready;
  }
  char Text[160] = "a malformed answer to the greeting";
  bool Taken = H.Type == MessageType::AddressTaken;
  if ((H.Type == MessageType::NodeError || Taken) && H.Bytes < sizeof Text &&
      E.Link.receivePayload(Text, H.Bytes))
    Text[H.Bytes] = 0;
  failStart(static_cast<const char *>(Text));
  return Taken ? Greeting::AddressTaken : Greeting::Failed;
}
} // namespace

bool startNode(int Id, const StackRegion &Stack) {
  NodeState &N = node();
  if ((!N.SyscallBuffer && !(N.SyscallBuffer = sys::mapPrivate(SyscallBufferBytes))) ||
      (!N.PageRun && !(N.PageRun = sys::mapPrivate(MaxPagesPerRun * PageBytes))))
    return failStart("no memory");
  NodeEntry &E = N.Nodes[Id];
  LinkKey Key;
  if (E.remote()) {
    char Path[512];
    if (!keyFilePath(Path, sizeof Path))
      return failStart("no key file: set POPCORN_KEY_FILE or HOME");
    if (!readKeyFile(Path, Key, StartFailure, sizeof StartFailure))
      return false;
  } else {
    if (!N.SecretReady && !randomBytes(N.Secret.Bytes, sizeof N.Secret.Bytes))
      return failStart("no random bytes for the node's key");
    N.SecretReady = true;
    Key = N.Secret;
  }
  // A process whose random placements (qemu-user's stack, the vDSO) took
  // an address home's memory needs gives way to another: each has its
  // own, and two in a row are as rare as one in a million.
  for (int Attempt = 0; Attempt < MaxNodeAttempts; Attempt++) {
    bool Started = E.How == Launcher::Tcp   ? connectNode(E)
                   : E.How == Launcher::Ssh ? launchRemoteNode(E)
                                            : spawnNode(Id, E, Key);
    if (!Started)
      return false;
    Greeting Answer = greetNode(Id, E, Key, Stack);
    if (Answer == Greeting::Ready) {
      // What the launcher says from now on is not read: its reason to
      // fail was all that was wanted.
      forgetLauncherErrors(E);
      N.LinksOwner = getpid();
      return true;
    }
    if (Answer == Greeting::Failed && E.How == Launcher::Ssh)
      explainLauncherFailure(E);
    stopNode(E);
    if (Answer == Greeting::Failed)
      return false;
  }
  return false;
}

// A node's name in messages: "node 1 (aarch64)", "node 3 (x86_64 at
// HOST:PORT)", "node 4 (aarch64 at ssh:USER@HOST)".
void nameNode(Line &L, const NodeEntry &E, int Id) {
  L << "node " << uint64_t(Id) << " (" << isaName(E.Machine);
  if (E.How == Launcher::Tcp)
    L << " at " << E.Host << ":" << uint64_t(E.Port);
  if (E.How == Launcher::Ssh)
    L << " at ssh:" << E.Host;
  L << ")";
}

namespace {
// Settings that take one of a few words: a word misspelt would otherwise
// silently be none of them (POPCORN_LOG=stat printed no statistics).
struct KeywordSetting {
  Setting Which;
  const char *Words[3];
};
constexpr KeywordSetting KeywordSettings[] = {
    {Setting::Log, {"stats", "verbose", "quiet"}},
    {Setting::TrackWrites, {"0", "1", nullptr}},
    {Setting::CheckUnwind, {"1", "verbose", nullptr}},
    {Setting::SelfTest, {"same", "roundtrip", nullptr}},
};

// False, having said which, if a keyword setting has another value.
bool keywordSettingsKnown() {
  for (const KeywordSetting &K : KeywordSettings) {
    const char *Value = setting(K.Which);
    if (!Value || !*Value)
      continue;
    int Count = 0;
    bool Known = false;
    for (const char *Word : K.Words)
      if (Word)
        Count++, Known |= !strcmp(Word, Value);
    if (Known)
      continue;
    Line L;
    L << "popcorn: " << settingName(K.Which) << ": '" << Value << "' must be ";
    for (int I = 0; I < Count; I++)
      L << (I == 0 ? "" : I == Count - 1 ? " or " : ", ") << "'" << K.Words[I] << "'";
    return false;
  }
  return true;
}
} // namespace

bool readNodeTable() {
  NodeState &N = node();
  if (!keywordSettingsKnown())
    return false;
  N.Self = 0;
  const char *Log = setting(Setting::Log);
  N.Quiet = Log && !strcmp(Log, "quiet");
  N.TimeoutMs = DefaultTimeoutMs;
  if (const char *Track = setting(Setting::TrackWrites); Track && !strcmp(Track, "0"))
    refuseWriteTracking();
  if (const char *Timeout = setting(Setting::Timeout)) {
    uint64_t Ms = durationOf(Timeout) / 1000000;
    if (!Ms || Ms > 3600 * 1000) {
      Line() << "popcorn: POPCORN_TIMEOUT: '" << Timeout
             << "' is not a duration from 1ms to 1h such as 500ms, 10s or 5m";
      return false;
    }
    N.TimeoutMs = int(Ms);
  }
  NodePlace Places[MaxNodes] = {};
  if (const char *List = setting(Setting::Nodes)) {
    char Reason[200];
    TextBuffer Why(Reason, sizeof Reason);
    if (!readNodeList(List, Here, Places, N.NodeCount, Why)) {
      Line() << "popcorn: POPCORN_NODES: " << Why.str();
      return false;
    }
  } else {
    // This process, then the other ISA on this machine (a process of its
    // own, run by the kernel or under qemu-user: spawnImage), then this
    // ISA again.
    N.NodeCount = 3;
    const uint16_t Other = Here == EmX86_64 ? EmAArch64 : EmX86_64;
    Places[0] = {Here, Launcher::Native, {}, 0};
    Places[1] = {Other, Launcher::Qemu, {}, 0};
    Places[2] = {Here, Launcher::Native, {}, 0};
  }
  for (int I = 0; I < MaxNodes; I++) {
    N.Nodes[I] = NodeEntry{};
    N.Nodes[I].Link.Ahead = N.LinkBuffers[I];
    static_cast<NodePlace &>(N.Nodes[I]) = Places[I];
  }
  return true;
}

// A forked child has copies of its parent's links, to nodes that serve
// the parent's thread: it closes them (the parent keeps its own) and
// starts nodes of its own, which hold none of its pages yet.
void leaveParentsNodes() {
  NodeState &N = node();
  if (!N.LinksOwner || N.LinksOwner == getpid())
    return;
  for (int I = 1; I < N.NodeCount; I++) {
    NodeEntry &E = N.Nodes[I];
    if (E.Link.Fd >= 0)
      close(E.Link.Fd);
    forgetLink(E);
  }
  forgetAllHeld();
  leaveParentsTracker();
  N.LinksOwner = 0;
}

} // namespace popcorn
