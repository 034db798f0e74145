//===- RemoteLauncher.cpp - Nodes started on other hosts by a command -----===//
//
// The launcher runs in a child made by a raw fork, not posix_spawn: its
// standard streams must be the link and the error file, and posix_spawn's
// file actions allocate in the program's heap, which the migration path
// leaves alone.  The child makes raw calls only (its libc state is a
// copy of a multithreaded parent's) and reports a failed exec through a
// close-on-exec pipe, as posix_spawn does.
//
//===----------------------------------------------------------------------===//
#include "nodes/RemoteLauncher.h"
#include "nodes/StartNodes.h"
#include "state/Settings.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace popcorn {
namespace {

constexpr int MaxWords = 32;
constexpr long Sigchld = 17;
constexpr long Setsid = sys::number(112, 157), Execve = sys::number(59, 221);

const char *launcherWords() {
  const char *Words = setting(Setting::Ssh);
  return Words && *Words ? Words : "ssh";
}

const char *nodeCommandWords() {
  const char *Words = setting(Setting::NodeCommand);
  return Words && *Words ? Words : "popcorn-node";
}

// Keeps the parts of the reason for the warning; false.
template <class... Parts> bool fail(const Parts &...Part) {
  TextBuffer Why(StartFailure, sizeof StartFailure);
  (Why << ... << Part);
  return false;
}

// An argument vector in storage of its own: no heap on the migration path.
class CommandLine {
public:
  char *const *argv() const { return Argv; }
  const char *name() const { return Argv[0]; }
  int count() const { return Count; }

  // Appends Text's words (split at spaces and tabs); false if they do not fit.
  bool addWords(const char *Text) {
    for (const char *P = Text;;) {
      while (*P == ' ' || *P == '\t')
        P++;
      if (!*P)
        return true;
      const char *End = P;
      while (*End && *End != ' ' && *End != '\t')
        End++;
      if (!add(P, size_t(End - P)))
        return false;
      P = End;
    }
  }
  bool add(const char *Word) { return add(Word, strlen(Word)); }

private:
  bool add(const char *Word, size_t Bytes) {
    if (Count == MaxWords || Used + Bytes + 1 > sizeof Text)
      return false;
    Argv[Count++] = static_cast<char *>(memcpy(Text + Used, Word, Bytes));
    Text[Used + Bytes] = 0;
    Used += Bytes + 1;
    return true;
  }
  char Text[1024];
  char *Argv[MaxWords + 1] = {};
  int Count = 0;
  size_t Used = 0;
};

// POPCORN_SSH... [USER@]HOST POPCORN_NODE_COMMAND... --stdio, or false
// with the reason.
bool buildCommand(const NodeEntry &E, CommandLine &C) {
  if (!C.addWords(launcherWords()))
    return fail("POPCORN_SSH is longer than ", uint64_t(MaxWords), " words or 1 KiB");
  if (!C.count())
    return fail("POPCORN_SSH names no command");
  if (!C.add(E.Host))
    return fail("POPCORN_SSH is longer than ", uint64_t(MaxWords), " words or 1 KiB");
  int Before = C.count();
  if (!C.addWords(nodeCommandWords()) || !C.add("--stdio"))
    return fail("POPCORN_NODE_COMMAND is longer than ", uint64_t(MaxWords), " words or 1 KiB");
  if (C.count() == Before + 1)
    return fail("POPCORN_NODE_COMMAND names no command");
  return true;
}

// execvp's search of Path, with raw calls; returns the error (positive)
// of the last candidate that exists, else ENOENT.
long execInPath(char *const *Argv, const char *Path) {
  const char *Name = Argv[0];
  if (strchr(Name, '/'))
    return -sys::call6(Execve, long(Name), long(Argv), long(environ));
  size_t NameBytes = strlen(Name);
  long Error = ENOENT;
  for (const char *Dir = Path;;) {
    const char *End = strchrnul(Dir, ':');
    char Full[512];
    size_t DirBytes = size_t(End - Dir);
    if (DirBytes + NameBytes + 2 <= sizeof Full) {
      memcpy(Full, Dir, DirBytes);
      size_t At = DirBytes;
      if (DirBytes) // an empty entry is the current directory
        Full[At++] = '/';
      memcpy(Full + At, Name, NameBytes + 1);
      long R = -sys::call6(Execve, long(Full), long(Argv), long(environ));
      if (R != ENOENT && R != ENOTDIR)
        Error = R;
    }
    if (!*End)
      return Error;
    Dir = End + 1;
  }
}

// In the forked child: the launcher, with the link as its standard input
// and output and the error file as its standard error, in a session of
// its own (no terminal: a password prompt fails rather than waits, and
// the terminal's ^C is home's to handle).
[[noreturn]] void runLauncher(const CommandLine &C, const char *Path, int Link, int Errors,
                              int Status) {
  uint64_t NoSignals = 0;
  sys::call6(sys::RtSigprocmask, 2 /* SIG_SETMASK */, long(&NoSignals), 0, 8);
  sys::call6(Setsid, 0);
  sys::call6(sys::Dup3, Link, 0, 0);
  sys::call6(sys::Dup3, Link, 1, 0);
  sys::call6(sys::Dup3, Errors, 2, 0);
  // The program's descriptors are not the launcher's: one holding a
  // pipe's write end would keep its reader waiting.
  sys::call6(sys::CloseRange, 3, Status - 1, 0);
  sys::call6(sys::CloseRange, Status + 1, ~0u, 0);
  long Error = execInPath(C.argv(), Path);
  sys::call6(sys::Write, Status, long(&Error), sizeof Error);
  sys::call6(sys::ExitGroup, 127);
  __builtin_unreachable();
}

// Reads the child's report of a failed exec: 0 if it ran the launcher.
long execError(int Status) {
  long Error = 0;
  ssize_t Got;
  do
    Got = read(Status, &Error, sizeof Error);
  while (Got < 0 && errno == EINTR);
  return Got == sizeof Error ? Error : 0;
}

void closeAll(const int *Fds, int Count) {
  for (int I = 0; I < Count; I++)
    if (Fds[I] >= 0)
      close(Fds[I]);
}

// The last line the launcher wrote on stderr, without its newline; empty
// if none.
void lastErrorLine(int Errors, char *Out, size_t Room) {
  *Out = 0;
  off_t End = lseek(Errors, 0, SEEK_END);
  char Tail[200];
  off_t From = End > off_t(sizeof Tail - 1) ? End - off_t(sizeof Tail - 1) : 0;
  ssize_t Got = End > 0 ? pread(Errors, Tail, size_t(End - From), From) : 0;
  if (Got <= 0)
    return;
  while (Got > 0 && (Tail[Got - 1] == '\n' || Tail[Got - 1] == '\r'))
    Got--;
  Tail[Got] = 0;
  const char *Line = strrchr(Tail, '\n');
  Line = Line ? Line + 1 : Tail;
  size_t Bytes = strlen(Line) < Room - 1 ? strlen(Line) : Room - 1;
  memcpy(Out, Line, Bytes);
  Out[Bytes] = 0;
}

// Whether Pid ends within about a second (the launcher of a link that
// closed is ending), with its status.
bool endsSoon(int Pid, int &Status) {
  for (int Try = 0; Try < 100; Try++) {
    if (waitpid(Pid, &Status, WNOHANG) == Pid)
      return true;
    usleep(10000);
  }
  return false;
}

} // namespace

bool launchRemoteNode(NodeEntry &E) {
  CommandLine C;
  if (!buildCommand(E, C))
    return false;
  const char *Path = getenv("PATH");
  int Link[2] = {-1, -1}, Status[2] = {-1, -1};
  int Errors = int(sys::aboveStdio(memfd_create("popcorn-launcher-errors", MFD_CLOEXEC)));
  if (Errors < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Link) ||
      pipe2(Status, O_CLOEXEC)) {
    int Opened[] = {Errors, Link[0], Link[1], Status[0], Status[1]};
    closeAll(Opened, 5);
    return fail("no descriptors for ", C.name(), ": ", strerror(errno));
  }
  // The child's dup3 onto 0, 1 and 2 needs them above those.
  int *Moved[] = {&Link[0], &Link[1], &Status[0], &Status[1]};
  for (int *Fd : Moved)
    *Fd = int(sys::aboveStdio(*Fd));
  long Pid = sys::call6(sys::Clone, Sigchld, 0, 0, 0, 0);
  if (Pid == 0)
    runLauncher(C, Path ? Path : "/usr/local/bin:/usr/bin:/bin", Link[1], Errors, Status[1]);
  int Used[] = {Link[1], Status[1]};
  closeAll(Used, 2);
  long Error = Pid > 0 ? execError(Status[0]) : -Pid;
  close(Status[0]);
  if (Error) {
    if (Pid > 0)
      waitpid(int(Pid), nullptr, 0);
    int Unused[] = {Link[0], Errors};
    closeAll(Unused, 2);
    if (Error == ENOENT)
      return fail(C.name(), " is not installed (not in PATH; POPCORN_SSH names the launcher)");
    return fail("cannot run ", C.name(), ": ", strerror(int(Error)));
  }
  E.Pid = int(Pid);
  E.LauncherErrors = int(sys::outOfTheWay(Errors));
  E.Link.open(int(sys::outOfTheWay(Link[0])));
  return true;
}

void explainLauncherFailure(NodeEntry &E) {
  int Status;
  if (E.Pid <= 0 || !endsSoon(E.Pid, Status))
    return;
  E.Pid = 0;
  char Said[160];
  lastErrorLine(E.LauncherErrors, Said, sizeof Said);
  TextBuffer Why(StartFailure + strlen(StartFailure),
                 sizeof StartFailure - strlen(StartFailure));
  CommandLine C;
  C.addWords(launcherWords());
  Why << "; " << C.name();
  if (WIFSIGNALED(Status))
    Why << " was killed by signal " << uint64_t(WTERMSIG(Status));
  else
    Why << " exited with status " << uint64_t(WEXITSTATUS(Status));
  if (*Said)
    Why << ": " << static_cast<const char *>(Said);
}

void forgetLauncherErrors(NodeEntry &E) {
  if (E.LauncherErrors > 0)
    close(E.LauncherErrors);
  E.LauncherErrors = 0;
}

} // namespace popcorn
