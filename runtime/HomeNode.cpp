//===- HomeNode.cpp - The process a program started as --------------------===//
#include "HomeNode.h"
#include "AddressSpace.h"
#include "ControlSocket.h"
#include "ExecutableFile.h"
#include "NodeState.h"
#include "Report.h"
#include "Syscall.h"
#include "SystemCalls.h"
#include "Thread.h"
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace popcorn;

extern "C" {
extern int __popcorn_migration_pending;
extern const popcorn_metadata __popcorn_metadata;
[[noreturn]] void popcorn_resume(const RegisterSet *Registers);
}

namespace popcorn {
namespace {

constexpr uint16_t Here = sys::Here;

uint16_t machineOf(const char *Isa, size_t Length) {
  if (Length == 6 && !strncmp(Isa, "x86_64", 6))
    return EmX86_64;
  if (Length == 7 && !strncmp(Isa, "aarch64", 7))
    return EmAArch64;
  return 0;
}

// One "ID:ISA:LAUNCHER" entry of POPCORN_NODES.
bool readNode(const char *Entry, const char *End) {
  NodeState &N = node();
  char *After;
  long Id = strtol(Entry, &After, 10);
  const char *Isa = After + 1;
  const char *IsaEnd = Isa;
  while (IsaEnd < End && *IsaEnd != ':')
    IsaEnd++;
  if (After == Entry || *After != ':' || Id < 0 || Id >= MaxNodes || IsaEnd == End)
    return false;
  NodeEntry &E = N.Nodes[Id];
  E.Machine = machineOf(Isa, size_t(IsaEnd - Isa));
  const char *How = IsaEnd + 1;
  size_t HowLength = size_t(End - How);
  if (!E.Machine)
    return false;
  if (HowLength == 6 && !strncmp(How, "native", 6) && E.Machine == Here)
    E.How = Launcher::Native;
  else if (HowLength == 4 && !strncmp(How, "qemu", 4))
    E.How = Launcher::Qemu;
  else
    return false;
  if (Id >= N.NodeCount)
    N.NodeCount = int(Id + 1);
  return true;
}

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
  FILE *Maps = fopen("/proc/self/maps", "re");
  char Line[512];
  unsigned long Low, High;
  while (Maps && fgets(Line, sizeof Line, Maps))
    if (strstr(Line, "[stack]") && mapsRange(Line, Low, High) &&
        StackHigh > Low && StackHigh <= High)
      Out[Count++] = {pageDown(StackHigh), High};
  if (Maps)
    fclose(Maps);
  return Count;
}

bool startNode(int Id, uint64_t StackHigh) {
  NodeState &N = node();
  if (!N.SyscallBuffer && !(N.SyscallBuffer = sys::mapPrivate(SyscallBufferBytes))) {
    errno = ENOMEM;
    return false;
  }
  NodeEntry &E = N.Nodes[Id];
  int Link[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Link))
    return false;
  int Image = E.Machine == Here ? -1 : ExecutableFile().copyImage(E.Machine);
  int Child = dup(Link[1]); // without close-on-exec
  char Path[64], Qemu[32], Env[64];
  if (E.Machine == Here)
    snprintf(Path, sizeof Path, "/proc/self/exe");
  else
    snprintf(Path, sizeof Path, "/proc/self/fd/%d", Image);
  snprintf(Qemu, sizeof Qemu, "qemu-%s", isaName(E.Machine));
  snprintf(Env, sizeof Env, "POPCORN_NODE=%d:%d", Id, Child);
  char *QemuArgv[] = {Qemu, Path, nullptr};
  char *NativeArgv[] = {Path, nullptr};
  // The node's environment: its link, and qemu's own settings
  // (QEMU_STRACE, QEMU_LOG...) for whoever debugs it.
  char *Envp[16] = {Env};
  int Count = 1;
  for (char **E = environ; *E && Count < 15; E++)
    if (!strncmp(*E, "QEMU_", 5))
      Envp[Count++] = *E;
  pid_t Pid = -1;
  int Error = (E.Machine != Here && Image < 0) || Child < 0
                  ? ENOEXEC
                  : posix_spawnp(&Pid, E.How == Launcher::Qemu ? Qemu : Path, nullptr, nullptr,
                                 E.How == Launcher::Qemu ? QemuArgv : NativeArgv, Envp);
  close(Link[1]);
  if (Child >= 0)
    close(Child);
  if (Image >= 0)
    close(Image);
  if (Error) {
    close(Link[0]);
    errno = Error;
    return false;
  }
  E.Pid = Pid;
  E.Link.Fd = Link[0];
  HelloMessage Hello = {uint32_t(getpid()), Here, 0, {}, uint16_t(N.NodeCount), {}};
  Hello.Ranges = sharedRanges(Hello.Shared, StackHigh);
  for (int I = 0; I < N.NodeCount; I++)
    Hello.NodeMachines[I] = N.Nodes[I].Machine;
  return E.Link.send(MessageType::Hello, &Hello, sizeof Hello);
}

[[noreturn]] void nodeDied(NodeEntry &E, int Id) {
  int Status = 0;
  {
    Line L;
    L << "popcorn: node " << uint64_t(Id) << " (" << isaName(E.Machine)
      << ") ended while the thread was there";
    if (E.Pid > 0 && waitpid(E.Pid, &Status, 0) == E.Pid) {
      if (WIFSIGNALED(Status))
        L << ": killed by signal " << uint64_t(WTERMSIG(Status));
      else if (WIFEXITED(Status))
        L << ": exit status " << uint64_t(WEXITSTATUS(Status));
    }
  }
  closeControlSocket();
  sys::exitGroup(WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : 1);
}

// Pages served to a node and pages it sends back are read and written
// through the kernel (Call: process_vm_readv or _writev on this process):
// an address the program has no such access to is an error, not a crash.
bool copyOwnMemory(long Call, uint64_t Address, void *Bytes, uint64_t Size) {
  struct {
    void *Base;
    uint64_t Size;
  } Local = {Bytes, Size}, Program = {reinterpret_cast<void *>(Address), Size};
  return sys::call6(Call, getpid(), long(&Local), 1, long(&Program), 1, 0) == long(Size);
}

// While the thread is away: its pages and system calls, until it comes back.
[[noreturn]] void serveAway(NodeEntry &E, int Id, ThreadState &T) {
  // Not a static: the program's data may be written by the pages that
  // come back, this buffer among them.
  PageMessage &Page = node().Page;
  for (;;) {
    MessageHeader H;
    if (!E.Link.receiveHeader(H))
      nodeDied(E, Id);
    // Heard from: the thread runs there, and so does its SIGRTMIN handler
    // (Steering.h).
    node().ThreadNode = Id;
    switch (H.Type) {
    case MessageType::PageRequest:
      if (H.Bytes != sizeof Page.Address || !E.Link.receivePayload(&Page.Address, 8))
        nodeDied(E, Id);
      node().PagesFetched++;
      if (copyOwnMemory(sys::ProcessVmReadv, Page.Address, Page.Bytes, PageBytes)
              ? !E.Link.send(MessageType::PageData, &Page, sizeof Page)
              : !E.Link.send(MessageType::PageMissing, &Page.Address, 8))
        nodeDied(E, Id);
      continue;
    case MessageType::Syscall:
      if (!serveSyscall(E.Link, E.Machine, H.Bytes))
        nodeDied(E, Id);
      continue;
    case MessageType::Exit: {
      ExitMessage M;
      if (H.Bytes != sizeof M || !E.Link.receivePayload(&M, sizeof M))
        nodeDied(E, Id);
      if (node().ReportAtExit)
        reportMigrations();
      closeControlSocket();
      sys::exitGroup(M.Status);
    }
    case MessageType::ReturnHome: {
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
      for (;;) {
        if (!E.Link.receiveHeader(H))
          nodeDied(E, Id);
        if (H.Type == MessageType::End)
          break;
        if (H.Type != MessageType::PageData || H.Bytes != sizeof Page ||
            !E.Link.receivePayload(&Page, sizeof Page))
          nodeDied(E, Id);
        copyOwnMemory(sys::ProcessVmWritev, Page.Address, Page.Bytes, PageBytes);
        node().PagesReturned++;
      }
      memcpy(reinterpret_cast<void *>(M.Registers.Sp), T.Staging + (M.Registers.Sp - Home.Low),
             StackBytes);
      T.Current = 0;
      node().ThreadAway = false;
      node().ThreadNode = 0;
      if (node().SignalledMigration)
        __popcorn_migration_pending = 1; // Triggers.h: SIGRTMIN while away
      if (M.Next && migrateAway(M.Registers, int(M.Next)) != 0)
        Line() << "popcorn: the thread came home and stays: node " << uint64_t(M.Next)
               << " refused it";
      popcorn_resume(&M.Registers);
    }
    default:
      Line() << "popcorn: node " << uint64_t(Id) << " sent a malformed message";
      nodeDied(E, Id);
    }
  }
}
} // namespace

void reportMigrations() {
  NodeState &N = node();
  Line() << "popcorn: migrations: " << N.Migrations << " away from home, " << N.PagesFetched
         << " pages fetched, " << N.PagesReturned << " pages written back, "
         << N.SyscallsForwarded << " system calls forwarded";
}

const char *isaName(uint16_t Machine) {
  return Machine == EmX86_64 ? "x86_64" : Machine == EmAArch64 ? "aarch64" : nullptr;
}

bool readNodeTable(char **Envp) {
  NodeState &N = node();
  N.Self = 0;
  // By default: this process, then each ISA on this machine (natively if
  // it is this one's, else under qemu-user), then this ISA again.
  N.NodeCount = 3;
  N.Nodes[0] = {Here, Launcher::Native, {}, 0, {}, 0};
  N.Nodes[1] = {EmAArch64, Here == EmAArch64 ? Launcher::Native : Launcher::Qemu, {}, 0, {}, 0};
  N.Nodes[2] = {EmX86_64, Here == EmX86_64 ? Launcher::Native : Launcher::Qemu, {}, 0, {}, 0};
  const char *Table = environment(Envp, "POPCORN_NODES");
  if (!Table)
    return true;
  N.NodeCount = 0;
  for (const char *P = Table; *P;) {
    const char *End = strchr(P, ',');
    if (!End)
      End = P + strlen(P);
    if (!readNode(P, End)) {
      Line() << "popcorn: POPCORN_NODES: '" << P
             << "' is not ID:ISA:LAUNCHER (ISA x86_64 or aarch64, LAUNCHER native or qemu)";
      return false;
    }
    P = *End ? End + 1 : End;
  }
  if (!N.NodeCount || N.Nodes[0].Machine != Here || N.Nodes[0].How != Launcher::Native) {
    Line() << "popcorn: POPCORN_NODES: node 0 must be this process (" << isaName(Here)
           << ":native)";
    return false;
  }
  return true;
}

int migrateAway(RegisterSet &Registers, int Target) {
  NodeState &N = node();
  if (!N.ArenaReady)
    return ENOTSUP;
  ThreadState *T = currentThread();
  if (!T || (!T->RegionsReady && !setUpStackRegions(*T, &__popcorn_metadata, Registers)))
    return ENOMEM;
  if (T->Current != 0)
    return EAGAIN;
  NodeEntry &E = N.Nodes[Target];
  if (E.Link.Fd < 0 || !E.Pid) {
    if (!startNode(Target, T->Regions[0].High)) {
      Line() << "popcorn: cannot start node " << uint64_t(Target) << " (" << isaName(E.Machine)
             << "): " << strerror(errno) << "; the thread stays home";
      return EHOSTUNREACH;
    }
  }
  if (!T->Staging &&
      !(T->Staging = sys::mapPrivate(T->Regions[0].High - T->Regions[0].Low)))
    return ENOMEM;
  const StackRegion &Away = T->Regions[1];
  RegisterSet Out;
  RewriteRequest Request{&__popcorn_metadata, &Registers, E.Machine,
                         threadPointerFor(E.Machine, Registers), Away, T->Scratch, T->MaxFrames};
  RewriteResult Result = rewriteStack(Request, Out);
  if (Result.Error != RewriteError::None)
    return EAGAIN;
  Out.Gpr[0] = 0; // popcorn_migrate's result where it lands
  carryObjectStack(Registers, E.Machine);
  MigrateMessage M{Out, Away, T->Regions[0]};
  N.Migrations++;
  N.ThreadAway = true;
  if (!E.Link.send2(MessageType::Migrate, &M, sizeof M, reinterpret_cast<void *>(Out.Sp),
                    uint32_t(Away.High - Out.Sp)))
    nodeDied(E, Target);
  serveAway(E, Target, *T);
}

} // namespace popcorn
