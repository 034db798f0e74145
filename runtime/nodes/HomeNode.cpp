//===- HomeNode.cpp - The process a program started as --------------------===//
#include "nodes/HomeNode.h"
#include "memory/AddressSpace.h"
#include "link/Authentication.h"
#include "control/ControlSocket.h"
#include "state/ExecutableFile.h"
#include "link/KeyFile.h"
#include "migration/LongJump.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "memory/PageAccess.h"
#include "memory/ReadablePages.h"
#include "memory/RetainedPages.h"
#include "support/Syscall.h"
#include "support/Text.h"
#include "syscalls/SystemCalls.h"
#include "migration/Thread.h"
#include "migration/Triggers.h"
#include "trace/Trace.h"
#include "memory/WrittenPages.h"
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
#include <unistd.h>

using namespace popcorn;

extern "C" {
extern int __popcorn_migration_pending;
}

namespace popcorn {
namespace {

constexpr uint16_t Here = sys::Here;

const char *environment(char **Envp, const char *Name) {
  size_t Length = strlen(Name);
  for (; *Envp; Envp++)
    if (!strncmp(*Envp, Name, Length) && (*Envp)[Length] == '=')
      return *Envp + Length + 1;
  return nullptr;
}

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
// the top of home's stack (arguments, environment).
uint16_t sharedRanges(AddressRange *Out, uint64_t StackHigh) {
  uint16_t Count = 0;
  auto *Phdr = reinterpret_cast<const Elf64_Phdr *>(getauxval(AT_PHDR));
  for (unsigned long I = 0; I < getauxval(AT_PHNUM) && Count < MaxSharedRanges - 2; I++)
    if (Phdr[I].p_type == PT_LOAD && (Phdr[I].p_flags & PF_W))
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
      if (strstr(Line, "[stack]") && mapsRange(Line, Low, High) && StackHigh > Low &&
          StackHigh <= High && Count < MaxSharedRanges)
        Out[Count++] = {pageDown(StackHigh), High};
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

// Why the last start of a node failed, for the warning.
char StartFailure[200];

// Keeps the parts of the reason for the warning; false.
template <class... Parts> bool failStart(const Parts &...Part) {
  TextBuffer Why(StartFailure, sizeof StartFailure);
  (Why << ... << Part);
  return false;
}

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
}

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

// A process of this executable (native) or of its image for E's ISA (under
// qemu) as node Id: linked to home by a socket pair, the key in a pipe
// read once at its start.
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
  int Image = E.Machine == Here ? -1 : int(sys::aboveStdio(ExecutableFile().copyImage(E.Machine), true));
  Link[0] = int(sys::outOfTheWay(Link[0]));
  int ChildLink = fcntl(Link[1], F_DUPFD, 3), ChildKey = fcntl(KeyPipe[0], F_DUPFD, 3);
  char Path[64], Qemu[32], Env[1024];
  if (E.Machine == Here)
    TextBuffer(Path, sizeof Path) << "/proc/self/exe";
  else
    TextBuffer(Path, sizeof Path) << "/proc/self/fd/" << Image;
  TextBuffer(Qemu, sizeof Qemu) << "qemu-" << isaName(E.Machine);
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
  char *QemuArgv[] = {Qemu, Path, nullptr};
  char *NativeArgv[] = {Path, nullptr};
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
  // With address randomization off for the program (gdb, setarch -R),
  // qemu-user's own stack would be where home's is, whose top holds the
  // program's arguments: qemu runs randomized, as it is inherited from
  // this process at the exec (and only read there).  A native node leaves
  // its first stack before it takes home's (nodes/RemoteNode.cpp: startNode).
  constexpr unsigned long NoRandomize = 0x0040000, Query = 0xffffffff;
  int Persona = personality(Query);
  bool Randomize = E.How == Launcher::Qemu && Persona != -1 && (Persona & NoRandomize);
  if (Randomize)
    personality(static_cast<unsigned long>(Persona) & ~NoRandomize);
  pid_t Pid = -1;
  int Error = !KeyWritten || ChildLink < 0 || ChildKey < 0 ? EMFILE
              : E.Machine != Here && Image < 0             ? ENOEXEC
                  : posix_spawnp(&Pid, E.How == Launcher::Qemu ? Qemu : Path, nullptr,
                                 &Attributes, E.How == Launcher::Qemu ? QemuArgv : NativeArgv,
                                 Envp);
  if (Randomize)
    personality(static_cast<unsigned long>(Persona));
  posix_spawnattr_destroy(&Attributes);
  int Opened[] = {Link[1], KeyPipe[0], ChildLink, ChildKey, Image};
  for (int Fd : Opened)
    if (Fd >= 0)
      close(Fd);
  if (Error) {
    close(Link[0]);
    if (Error == ENOENT && E.How == Launcher::Qemu)
      return failStart(Qemu, " is not installed");
    return failStart("cannot run ", E.How == Launcher::Qemu ? Qemu : Path, ": ",
                     strerror(Error));
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

// Authenticates the node, greets it and waits for it to be ready.
bool greetNode(int Id, NodeEntry &E, const LinkKey &Key, const StackRegion &Stack) {
  NodeState &N = node();
  E.Link.TimeoutMs = N.TimeoutMs;
  switch (authenticateNode(E.Link, Key)) {
  case AuthResult::Accepted:
    break;
  case AuthResult::Refused:
    return failStart("it failed authentication (",
                     E.How == Launcher::Tcp ? "another key file than this one?"
                                            : "not the process home started",
                     ")");
  case AuthResult::Lost:
    return failStart(E.Link.TimedOut ? "no answer within the timeout" : "it went away",
                     " during authentication");
  }
  if (E.How == Launcher::Tcp && !sendImage(Id, E))
    return false;
  HelloMessage Hello = {uint32_t(getpid()), Here, 0, {}, uint16_t(N.NodeCount), {},
                        uint32_t(N.TimeoutMs), uint32_t(E.How != Launcher::Tcp)};
  Hello.Ranges = sharedRanges(Hello.Shared, Stack.High);
  Hello.Trace = tracing();
  Hello.HomeStack = Stack;
  for (int I = 0; I < N.NodeCount; I++)
    Hello.NodeMachines[I] = N.Nodes[I].Machine;
  MessageHeader H;
  if (!E.Link.send(MessageType::Hello, &Hello, sizeof Hello) ||
      !E.Link.receiveHeader(H, N.TimeoutMs))
    return failStart(E.Link.TimedOut ? "no answer within the timeout" : "it ended",
                     " before it was ready");
  ReadyMessage Ready;
  if (H.Type == MessageType::Ready && H.Bytes == sizeof Ready &&
      E.Link.receivePayload(&Ready, sizeof Ready)) {
    E.StackAtHome = Ready.StackAtHome;
    return true;
  }
  char Text[160] = "a malformed answer to the greeting";
  if (H.Type == MessageType::NodeError && H.Bytes < sizeof Text &&
      E.Link.receivePayload(Text, H.Bytes))
    Text[H.Bytes] = 0;
  return failStart(static_cast<const char *>(Text));
}

bool startNode(int Id, const StackRegion &Stack) {
  NodeState &N = node();
  if ((!N.SyscallBuffer && !(N.SyscallBuffer = sys::mapPrivate(SyscallBufferBytes))) ||
      (!N.PageRun && !(N.PageRun = sys::mapPrivate(MaxPagesPerRun * PageBytes))))
    return failStart("no memory");
  NodeEntry &E = N.Nodes[Id];
  LinkKey Key;
  if (E.How == Launcher::Tcp) {
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
  if (!(E.How == Launcher::Tcp ? connectNode(E) : spawnNode(Id, E, Key)))
    return false;
  if (greetNode(Id, E, Key, Stack)) {
    N.LinksOwner = getpid();
    return true;
  }
  stopNode(E);
  return false;
}

// A node's name in messages: "node 1 (aarch64)", "node 3 (x86_64 at HOST:PORT)".
void nameNode(Line &L, const NodeEntry &E, int Id) {
  L << "node " << uint64_t(Id) << " (" << isaName(E.Machine);
  if (E.How == Launcher::Tcp)
    L << " at " << E.Host << ":" << uint64_t(E.Port);
  L << ")";
}

[[noreturn]] void nodeDied(NodeEntry &E, int Id) {
  int Status = 0;
  {
    Line L;
    L << "popcorn: ";
    nameNode(L, E, Id);
    if (E.Link.TimedOut) {
      L << " stopped in the middle of a message and was silent for " << uint64_t(E.Link.TimeoutMs)
        << " ms (POPCORN_TIMEOUT) while the thread was there";
    } else {
      L << " ended while the thread was there";
      // Its status, if it has one within a second: a node whose link
      // broke but that still runs is ended here.
      for (int Try = 0; Try < 100 && E.Pid > 0; Try++) {
        if (waitpid(E.Pid, &Status, WNOHANG) == E.Pid) {
          if (WIFSIGNALED(Status))
            L << ": killed by signal " << uint64_t(WTERMSIG(Status));
          else if (WIFEXITED(Status))
            L << ": exit status " << uint64_t(WEXITSTATUS(Status));
          E.Pid = 0;
          break;
        }
        usleep(10000);
      }
    }
  }
  stopNode(E);
  closeControlSocket();
  // Killed by a signal (one the program raised there: abort, a SIGPIPE
  // it did not ignore), the program ends by it here too, as it would
  // have at home: its parent's waitpid sees the signal (gnulib's
  // test-execute).
  if (WIFSIGNALED(Status)) {
    long Signal = WTERMSIG(Status);
    KernelSigaction Default{};
    uint64_t Bit = signalBit(int(Signal));
    sys::call6(sys::RtSigaction, Signal, long(&Default), 0, 8);
    sys::call6(sys::RtSigprocmask, 1 /* SIG_UNBLOCK */, long(&Bit), 0, 8);
    sys::call6(sys::Tgkill, sys::call6(sys::Getpid, 0), sys::call6(sys::Gettid, 0), Signal);
  }
  sys::exitGroup(WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : 1);
}

// A node's PageRequest: as many of the pages as this process has, from
// the first, as long as the program's access to them is the first's
// (PageAccess.h).  Sent from the program's memory when they are known readable
// (ReadablePages.h), else read through the kernel (sys::copyOwnMemory)
// into the run buffer, which ends the run at a page that is not mapped.
bool servePages(int Id, Channel &Link, uint32_t Bytes) {
  NodeState &N = node();
  PageRequestMessage Request;
  if (Bytes != sizeof Request || !Link.receivePayload(&Request, sizeof Request) ||
      !Request.Count || Request.Count > MaxPagesPerRun || Request.Address % PageBytes)
    return false;
  uint32_t Pages = Request.Count;
  const uint8_t *From = reinterpret_cast<const uint8_t *>(Request.Address);
  if (!readableInPlace(Request.Address, Pages)) {
    sys::IoVec Local = {N.PageRun, uint64_t(Pages) * PageBytes},
               Program = {reinterpret_cast<void *>(Request.Address), Local.Size};
    long Read = sys::copyOwnMemory(sys::ProcessVmReadv, Local, &Program, 1);
    Pages = Read > 0 ? uint32_t(uint64_t(Read) / PageBytes) : 0;
    From = N.PageRun;
    noteReadable(Request.Address, Pages);
  }
  if (!Pages)
    return Link.send(MessageType::PageMissing, &Request.Address, 8);
  uint32_t Flags;
  Pages = sameAccessRun(Request.Address, Pages, Flags);
  if (Flags & PageRunReadOnly)
    noteReadOnlyHeld(Id);
  N.PagesFetched += Pages;
  N.PageRequests++;
  PageRunMessage Run = {Request.Address, Pages, Flags};
  if (!Link.send2(MessageType::PageRun, &Run, sizeof Run, From, Pages * PageBytes))
    return false;
  // Hashed while the node maps them, not before it has them.
  for (uint32_t I = 0; I < Pages; I++)
    notePageHeld(Id, Request.Address + I * PageBytes, From + I * PageBytes);
  return true;
}

// A run of pages the thread wrote on node Id, back with it.  Whatever
// goes through the kernel (a receive into the program's memory, a write
// from the run buffer, node-private as the program's data may be among
// the pages), so that a page the program has no write access to now is
// skipped, not a crash.  Straight into the program's memory when InPlace
// (no other thread can unmap a page before it is hashed here): one copy
// less, and no process_vm_writev, which pins each page (bench/sieve.c
// moving every 100 ms: 8% less time); else all through the run buffer.
// The run's bytes are next in the link.
bool takeRunBack(int Id, Channel &Link, uint64_t Address, uint32_t Pages, bool InPlace) {
  NodeState &N = node();
  uint64_t Total = uint64_t(Pages) * PageBytes;
  auto *Program = reinterpret_cast<uint8_t *>(Address);
  long Direct = InPlace ? Link.receiveIntoProgram(Program, Total) : 0;
  if (Direct < 0 || !Link.receivePayload(N.PageRun + Direct, Total - uint64_t(Direct)))
    return false;
  // The node keeps its copy of each page written here.
  auto Held = [&](uint64_t From, uint64_t To) {
    for (uint64_t At = From; At + PageBytes <= To; At += PageBytes)
      notePageHeld(Id, Address + At, InPlace ? Program + At : N.PageRun + At);
    if (To > From)
      noteReadable(Address + From, (To - From) / PageBytes);
  };
  Held(0, uint64_t(Direct));
  // The rest from the first byte not written: a page the kernel will not
  // write (not home's any more) ends a write, and the next starts after it.
  for (uint64_t Done = uint64_t(Direct); Done < Total;) {
    sys::IoVec To = {Program + Done, Total - Done};
    long Written = sys::copyOwnMemory(sys::ProcessVmWritev, {N.PageRun + Done, To.Size}, &To, 1);
    uint64_t End = Done + (Written > 0 ? uint64_t(Written) : 0);
    Held(pageDown(Done), End);
    Done = End == Total ? End : pageDown(End) + PageBytes;
  }
  N.PagesReturned += Pages;
  return true;
}

// PageData: a run of pages the thread wrote on node Id (takeRunBack).
bool takePagesBack(int Id, Channel &Link, uint32_t Bytes, bool InPlace) {
  PageRunMessage Run;
  if (Bytes < sizeof Run || !Link.receivePayload(&Run, sizeof Run) || !Run.Pages ||
      Run.Pages > MaxPagesPerRun || Run.Address % PageBytes ||
      Bytes - sizeof Run != uint64_t(Run.Pages) * PageBytes)
    return false;
  return takeRunBack(Id, Link, Run.Address, Run.Pages, InPlace);
}

// PageSet: pages the thread wrote on node Id apart from each other, each
// a run of one.
bool takePageSetBack(int Id, Channel &Link, uint32_t Bytes, bool InPlace) {
  PageSetMessage Set;
  uint64_t Address[MaxPagesPerRun];
  if (Bytes < sizeof Set || !Link.receivePayload(&Set, sizeof Set) || !Set.Count ||
      Set.Count > MaxPagesPerRun ||
      Bytes - sizeof Set != uint64_t(Set.Count) * (sizeof Address[0] + PageBytes) ||
      !Link.receivePayload(Address, Set.Count * sizeof Address[0]))
    return false;
  for (uint32_t I = 0; I < Set.Count; I++)
    if (Address[I] % PageBytes || !takeRunBack(Id, Link, Address[I], 1, InPlace))
      return false;
  return true;
}

// A message of pages the thread wrote on node Id, PageData or PageSet;
// false for any other.
bool takeWrittenBack(int Id, Channel &Link, const MessageHeader &H, bool InPlace) {
  if (H.Type == MessageType::PageData)
    return takePagesBack(Id, Link, H.Bytes, InPlace);
  if (H.Type == MessageType::PageSet)
    return takePageSetBack(Id, Link, H.Bytes, InPlace);
  return false;
}

// The bytes the thread changed on node Id in a page shared with other
// processes, written through the kernel (the program may have unmapped
// or protected the page since; another process may be writing the rest).
bool takeDiffBack(Channel &Link, uint32_t Bytes) {
  NodeState &N = node();
  PageDiffMessage M;
  if (Bytes < sizeof M || Bytes > MaxDiffBytes || !Link.receivePayload(N.PageRun, Bytes))
    return false;
  memcpy(&M, N.PageRun, sizeof M);
  if (M.Address % PageBytes || M.Segments > PageBytes / 2)
    return false;
  constexpr uint32_t Batch = 64;
  sys::IoVec Local[Batch], Program[Batch];
  uint32_t Queued = 0, At = sizeof M;
  for (uint32_t I = 0; I < M.Segments; I++) {
    DiffSegment S;
    if (At + sizeof S > Bytes)
      return false;
    memcpy(&S, N.PageRun + At, sizeof S);
    At += sizeof S;
    if (!S.Bytes || S.Offset + S.Bytes > PageBytes || At + S.Bytes > Bytes)
      return false;
    Local[Queued] = {N.PageRun + At, S.Bytes};
    Program[Queued++] = {reinterpret_cast<void *>(M.Address + S.Offset), S.Bytes};
    At += S.Bytes;
    if (Queued == Batch || I + 1 == M.Segments) {
      sys::call6(sys::ProcessVmWritev, sys::call6(sys::Getpid, 0), long(Local), Queued,
                 long(Program), Queued, 0);
      Queued = 0;
    }
  }
  return At == Bytes;
}

// While the thread is away: its pages and system calls, until it comes back.
[[noreturn]] void serveAway(NodeEntry &E, int Id, ThreadState &T) {
  watchSignalsAway(Id);
  for (;;) {
    MessageHeader H;
    if (!E.Link.receiveHeader(H, -1, watchedSignals())) {
      if (!E.Link.Woken)
        nodeDied(E, Id);
      passSignalsAway(Id); // the program's handler runs where the thread is
      continue;
    }
    // Heard from: the thread runs there, and so does its SIGRTMIN handler
    // (Steering.h).
    node().ThreadNode = Id;
    switch (H.Type) {
    case MessageType::PageRequest:
      if (!servePages(Id, E.Link, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::Syscall:
      if (!serveSyscall(E.Link, E.Machine, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::TraceEvents:
      if (!receiveTrace(E.Link, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::PageData: // before a call that protects them (returnPages)
    case MessageType::PageSet:
      if (!takeWrittenBack(Id, E.Link, H, inPlaceThisTrip()))
        nodeDied(E, Id);
      continue;
    case MessageType::PageDiff: // before a system call (syncMapSharedPages)
      if (!takeDiffBack(E.Link, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::Unmap: {
      UnmapMessage M;
      if (H.Bytes != sizeof M || !E.Link.receivePayload(&M, sizeof M) ||
          !inArena(M.Address, M.Bytes) || M.Address % PageBytes || M.Bytes % PageBytes)
        nodeDied(E, Id);
      noteMappingCall(sys::Munmap, long(M.Address), long(M.Bytes), 0, 0);
      if (homeMunmap(long(M.Address), long(M.Bytes)))
        nodeDied(E, Id);
      node().SyscallsForwarded++;
      continue;
    }
    case MessageType::ThreadMask: {
      uint64_t Mask;
      if (H.Bytes != sizeof Mask || !E.Link.receivePayload(&Mask, sizeof Mask))
        nodeDied(E, Id);
      blockAsThreadAway(Mask);
      continue;
    }
    case MessageType::Exit: {
      ExitMessage M;
      if (H.Bytes != sizeof M || !E.Link.receivePayload(&M, sizeof M))
        nodeDied(E, Id);
      if (node().ReportAtExit)
        reportMigrations();
      writeTraceFile();
      closeControlSocket();
      sys::exitGroup(M.Status);
    }
    case MessageType::ReturnHome: {
      TraceSpan Arrival(TraceKind::Arrive);
      ReturnHomeMessage M;
      const StackRegion &Home = T.Regions[0];
      if (H.Bytes < sizeof M || !E.Link.receivePayload(&M, sizeof M))
        nodeDied(E, Id);
      uint64_t StackBytes = H.Bytes - sizeof M;
      // The stack goes in after the pages: one of them may hold its top.
      if (M.Registers.Machine != Here || M.Registers.Sp < Home.Low ||
          M.Registers.Sp + StackBytes != Home.High ||
          !E.Link.receivePayload(T.Staging + (M.Registers.Sp - Home.Low), StackBytes))
        nodeDied(E, Id);
      bool InPlace = inPlaceThisTrip();
      for (;;) {
        if (!E.Link.receiveHeader(H))
          nodeDied(E, Id);
        if (H.Type == MessageType::End)
          break;
        if (H.Type == MessageType::TraceEvents && receiveTrace(E.Link, H.Bytes))
          continue;
        if (!takeWrittenBack(Id, E.Link, H, InPlace))
          nodeDied(E, Id);
      }
      noteThreadHome(Id);
      memcpy(reinterpret_cast<void *>(M.Registers.Sp), T.Staging + (M.Registers.Sp - Home.Low),
             StackBytes);
      T.Current = 0;
      node().ThreadAway = false;
      node().ThreadNode = 0;
      if (node().SignalledMigration)
        __popcorn_migration_pending = 1; // Triggers.h: SIGRTMIN while away
      Arrival.finish();
      fesetenv(&M.FloatEnvironment);
      returnSignals(M.SignalMask, M.PendingSignals);
      if (M.Next && migrateAway(M.Registers, int(M.Next)) != 0)
        Line() << "popcorn: the thread came home and stays: node " << uint64_t(M.Next)
               << " refused it";
      noteArrivedFrames(M.Registers);
      popcorn_resume(&M.Registers);
    }
    default:
      Line() << "popcorn: node " << uint64_t(Id) << " sent a malformed message";
      nodeDied(E, Id);
    }
  }
}

// " (3 to node 1, 4 to node 2)": which nodes the thread reached, so that a
// test of a schedule that names several can tell each was.
void reportMovesPerNode(Line &L, const NodeState &N) {
  const char *Before = " (";
  for (int I = 1; I < N.NodeCount; I++) {
    if (!N.Nodes[I].Moves)
      continue;
    L << Before << N.Nodes[I].Moves << " to node " << uint64_t(I);
    Before = ", ";
  }
  if (*Before == ',')
    L << ")";
}
} // namespace

void reportMigrations() {
  NodeState &N = node();
  Line L;
  L << "popcorn: migrations: " << N.Migrations << " away from home";
  reportMovesPerNode(L, N);
  L << ", " << N.PagesFetched
    << " pages fetched in " << N.PageRequests << " requests, " << N.PagesReturned
    << " pages written back, " << N.SyscallsForwarded << " system calls forwarded";
  if (N.Migrations && writeTrackingOff())
    L << "; pages kept on nodes checked by hashing: " << writeTrackingOff();
}

bool isRuntimeDescriptor(long Fd) {
  NodeState &N = node();
  if (Fd < 0)
    return false;
  // A forked child has copies of its parent's: its own to close.
  for (int I = 1; I < N.NodeCount; I++)
    if (N.Nodes[I].Link.Fd == Fd)
      return N.LinksOwner == getpid();
  return (Fd == controlSocketDescriptor() && controlThreadRuns()) ||
         (Fd == N.WriteTrackerFd && Fd == writeTrackerDescriptor()) ||
         Fd == awaySignalDescriptor();
}

long closeProgramRange(uint32_t First, uint32_t Last, long Flags) {
  NodeState &N = node();
  // CLOSE_RANGE_CLOEXEC closes nothing (the runtime's are close-on-exec).
  constexpr long Cloexec = 4;
  int Own[MaxNodes + 3], Count = 0;
  auto Note = [&](int Fd) {
    if (Fd < 0 || uint32_t(Fd) < First || uint32_t(Fd) > Last || !isRuntimeDescriptor(Fd))
      return;
    int At = Count++;
    for (; At > 0 && Own[At - 1] > Fd; At--)
      Own[At] = Own[At - 1];
    Own[At] = Fd;
  };
  if (!(Flags & Cloexec) && First <= Last) { // else the kernel's EINVAL
    for (int I = 1; I < N.NodeCount; I++)
      Note(N.Nodes[I].Link.Fd);
    Note(controlSocketDescriptor());
    Note(writeTrackerDescriptor());
    Note(awaySignalDescriptor());
  }
  // The ranges around them, from the lowest up.
  uint64_t From = First;
  for (int I = 0; I <= Count; I++) {
    uint64_t To = I < Count ? uint64_t(Own[I]) - 1 : Last;
    if (From <= To || !Count) {
      long R = sys::call6(sys::CloseRange, long(From), long(To), Flags);
      if (R < 0)
        return R;
    }
    if (I < Count)
      From = uint64_t(Own[I]) + 1;
  }
  return 0;
}

void moveRuntimeDescriptor(long Fd) {
  NodeState &N = node();
  if (!isRuntimeDescriptor(Fd))
    return;
  int Moved = int(sys::outOfTheWay(Fd, false));
  if (Moved == Fd)
    return; // no room: the program's call takes it, as before
  for (int I = 1; I < N.NodeCount; I++)
    if (N.Nodes[I].Link.Fd == Fd)
      N.Nodes[I].Link.Fd = Moved;
  if (Fd == controlSocketDescriptor())
    controlSocketMoved(Moved);
  if (Fd == writeTrackerDescriptor())
    writeTrackerMoved(Moved);
  if (Fd == awaySignalDescriptor())
    awaySignalDescriptorMoved(Moved);
}

bool readNodeTable(char **Envp) {
  NodeState &N = node();
  N.Self = 0;
  const char *Log = environment(Envp, "POPCORN_LOG");
  N.Quiet = Log && !strcmp(Log, "quiet");
  N.TimeoutMs = DefaultTimeoutMs;
  if (const char *Track = environment(Envp, "POPCORN_TRACK_WRITES"); Track && !strcmp(Track, "0"))
    refuseWriteTracking();
  if (const char *Timeout = environment(Envp, "POPCORN_TIMEOUT")) {
    uint64_t Ms = durationOf(Timeout) / 1000000;
    if (!Ms || Ms > 3600 * 1000) {
      Line() << "popcorn: POPCORN_TIMEOUT: '" << Timeout
             << "' is not a duration from 1ms to 1h such as 10s or 500ms";
      return false;
    }
    N.TimeoutMs = int(Ms);
  }
  NodePlace Places[MaxNodes] = {};
  if (const char *List = environment(Envp, "POPCORN_NODES")) {
    char Reason[200];
    TextBuffer Why(Reason, sizeof Reason);
    if (!readNodeList(List, Here, Places, N.NodeCount, Why)) {
      Line() << "popcorn: POPCORN_NODES: " << Why.str();
      return false;
    }
  } else {
    // This process, then each ISA on this machine (natively if it is this
    // one's, else under qemu-user), then this ISA again.
    N.NodeCount = 3;
    const uint16_t Machines[] = {Here, EmAArch64, EmX86_64};
    for (int I = 0; I < N.NodeCount; I++)
      Places[I] = {Machines[I], Machines[I] == Here ? Launcher::Native : Launcher::Qemu, {}, 0};
  }
  for (int I = 0; I < MaxNodes; I++) {
    N.Nodes[I] = NodeEntry{};
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
    E.Link.open(-1);
    E.Pid = 0;
    E.SignalActionsSent = 0;
    E.StackAtHome = false;
  }
  forgetAllHeld();
  leaveParentsTracker();
  N.LinksOwner = 0;
}

int migrateAway(RegisterSet &Registers, int Target) {
  NodeState &N = node();
  // Starting the node and flushing stdio may set errno; the thread takes
  // the program's along, as it was at the migration point.
  int ProgramErrno = errno;
  if (!N.ArenaReady)
    return ENOTSUP;
  ThreadState *T = currentThread();
  if (!T || (!T->RegionsReady && !setUpStackRegions(*T, &__popcorn_metadata, Registers)))
    return ENOMEM;
  if (T->Current != 0)
    return EAGAIN;
  // The program's other threads would go on here with home's copies of
  // the pages this one takes along: nothing keeps them coherent (only
  // memory shared with other processes is, at system calls).
  noteProgramThreads();
  if (!N.OneProgramThread)
    return EBUSY;
  leaveParentsNodes();
  NodeEntry &E = N.Nodes[Target];
  if (E.Link.Fd < 0) {
    if (!startNode(Target, T->Reach)) {
      // Once per node: a program that keeps trying gets one line.
      if (!N.Quiet && !E.Warned) {
        E.Warned = true;
        Line L;
        L << "popcorn: cannot start ";
        nameNode(L, E, Target);
        L << ": " << StartFailure << "; the thread stays home";
      }
      return EHOSTUNREACH;
    }
  }
  // Region 0 and the rest of its top page (the arguments): see below.
  if (!T->Staging &&
      !(T->Staging = sys::mapPrivate(T->Regions[0].High - T->Regions[0].Low + PageBytes)))
    return ENOMEM;
  // What the program printed so far reaches its files now, in order: if
  // the node fails while the thread is there, no earlier output is lost
  // with the copy of stdio's buffers the thread took along.
  fflush(nullptr);
  // At home's stack addresses if the node has them: a program that noted
  // where its stack is (gnulib's c-stack, to tell an overflow from another
  // fault) finds it there on every node.  The rewrite then writes an image
  // of the region, since the thread runs on it.
  const StackRegion &Away = E.StackAtHome ? T->Regions[0] : T->Regions[1];
  uint8_t *Image = E.StackAtHome ? T->Staging : reinterpret_cast<uint8_t *>(Away.Low);
  RegisterSet Out;
  RewriteRequest Request{&__popcorn_metadata, &Registers, E.Machine,
                         threadPointerFor(E.Machine, Registers), Away, T->Scratch, T->MaxFrames};
  Request.SignalReturn = signalReturnAddress();
  Request.WriteBias = int64_t(uint64_t(Image) - Away.Low);
  TraceSpan Departure(TraceKind::Leave);
  RewriteResult Result = rewriteStack(Request, Out);
  if (Result.Error != RewriteError::None) {
    N.LastRefusal = Result;
    return EAGAIN;
  }
  Departure.mark();
  Out.Gpr[0] = 0; // popcorn_migrate's result where it lands
  // At home's addresses the stack's top page holds the arguments too: it
  // goes along whole, which saves the node asking for it at once.
  uint64_t Sent = E.StackAtHome ? pageUp(Away.High) : Away.High;
  if (Sent != Away.High)
    memcpy(Image + (Away.High - Away.Low), reinterpret_cast<void *>(Away.High),
           Sent - Away.High);
  carryObjectStack(Registers, E.Machine);
  MigrateMessage M{Out, Away, T->Regions[0]};
  fegetenv(&M.FloatEnvironment);
  N.Migrations++;
  E.Moves++;
  N.ThreadAway = true;
  errno = ProgramErrno;
  N.ThreadNode = Target; // ready since its Ready: steering may signal it
  if (!forgetChangedPages(Target, E.Link) || !leaveSignals(Target, E.Link, M.SignalMask) ||
      !E.Link.send2(MessageType::Migrate, &M, sizeof M, Image + (Out.Sp - Away.Low),
                    uint32_t(Sent - Out.Sp)))
    nodeDied(E, Target);
  Departure.finish(sizeof M + (Sent - Out.Sp), Result.Frames, Target);
  serveAway(E, Target, *T);
}

} // namespace popcorn
