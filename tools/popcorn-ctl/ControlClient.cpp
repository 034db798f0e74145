//===- ControlClient.cpp - Talking to a program's control socket ----------===//
#include "ControlClient.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

namespace popcorn {

std::vector<std::string> controlDirectories() {
  std::vector<std::string> Dirs;
  if (const char *Runtime = getenv("XDG_RUNTIME_DIR"); Runtime && *Runtime)
    Dirs.push_back(std::string(Runtime) + "/" + POPCORN_CONTROL_DIR_NAME);
  Dirs.push_back("/tmp/popcorn-" + std::to_string(geteuid()));
  return Dirs;
}

std::string socketOf(int Pid) {
  for (const std::string &Dir : controlDirectories()) {
    std::string Path = Dir + "/" + std::to_string(Pid);
    if (access(Path.c_str(), F_OK) == 0)
      return Path;
  }
  return "";
}

namespace {

std::string readProcFile(int Pid, const char *Name) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/" + Name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
}

// A copy fork made that has not exec'd: it has its parent's runtime
// state, but it is not a home of its own.
bool forkedWithoutExec(int Pid) {
  constexpr unsigned long PfForknoexec = 0x40;
  std::string Stat = readProcFile(Pid, "stat");
  size_t Close = Stat.rfind(')');
  if (Close == std::string::npos)
    return false;
  // After the command: state, ppid, pgrp, session, tty_nr, tpgid, flags.
  char State;
  long Ignored;
  unsigned long Flags = 0;
  if (sscanf(Stat.c_str() + Close + 1, " %c %ld %ld %ld %ld %ld %lu", &State, &Ignored, &Ignored,
             &Ignored, &Ignored, &Ignored, &Flags) != 7)
    return false;
  return Flags & PfForknoexec;
}

bool mapsRuntimeState(int Pid) {
  char Start[32];
  snprintf(Start, sizeof Start, "%llx-", POPCORN_CONTROL_STATE_ADDRESS);
  std::ifstream Maps("/proc/" + std::to_string(Pid) + "/maps");
  for (std::string Line; std::getline(Maps, Line);)
    if (Line.compare(0, strlen(Start), Start) == 0)
      return true;
  return false;
}

// The value of Name in a NUL-separated environment, or nullptr.
const char *valueIn(const std::string &Environment, const char *Name) {
  size_t Length = strlen(Name);
  for (const char *E = Environment.c_str(); E < Environment.c_str() + Environment.size();
       E += strlen(E) + 1)
    if (!strncmp(E, Name, Length) && E[Length] == '=')
      return E + Length + 1;
  return nullptr;
}

// The host's signal a home under qemu-user must get for the program to
// see Signal: qemu moves the real-time signals up by two (as the
// runtime's Steering.cpp knows).
int signalFor(int Pid, int Signal) {
  char Exe[4096];
  ssize_t N = readlink(("/proc/" + std::to_string(Pid) + "/exe").c_str(), Exe, sizeof Exe - 1);
  if (N <= 0)
    return Signal;
  Exe[N] = 0;
  const char *Name = strrchr(Exe, '/');
  return !strncmp(Name ? Name + 1 : Exe, "qemu-", 5) ? Signal + 2 : Signal;
}

} // namespace

ProcessKind kindOf(int Pid) {
  ProcessKind Kind = {false, false, "", 0};
  struct stat S;
  if (stat(("/proc/" + std::to_string(Pid)).c_str(), &S) != 0 || S.st_uid != geteuid() ||
      !mapsRuntimeState(Pid) || forkedWithoutExec(Pid))
    return Kind;
  // The runtime reads the environment it started with, as /proc has it.
  std::string Environment = readProcFile(Pid, "environ");
  if (valueIn(Environment, "POPCORN_NODE"))
    return Kind; // a node: its home answers for it
  Kind.Home = true;
  const char *Control = valueIn(Environment, "POPCORN_CONTROL");
  Kind.ControlOff = Control && !strcmp(Control, "off");
  const char *Runtime = valueIn(Environment, "XDG_RUNTIME_DIR");
  std::string Dir = Runtime && *Runtime ? std::string(Runtime) + "/" + POPCORN_CONTROL_DIR_NAME
                                        : "/tmp/popcorn-" + std::to_string(geteuid());
  Kind.Socket = Dir + "/" + std::to_string(Pid);
  Kind.OpenSignal = signalFor(Pid, POPCORN_CONTROL_OPEN_SIGNAL);
  return Kind;
}

Exchange askToOpen(int Pid, const ProcessKind &Kind, const popcorn_control_request &Request,
                   popcorn_control_reply &Reply, std::string &Why) {
  const std::string &Path = Kind.Socket;
  sigval Value;
  Value.sival_int = POPCORN_CONTROL_OPEN_VALUE;
  if (sigqueue(Pid, Kind.OpenSignal, Value) != 0) {
    Why = "cannot ask process " + std::to_string(Pid) + " to open its control socket: " +
          strerror(errno);
    return Exchange::Failed;
  }
  // A name left by a killed process of this PID is stale until the
  // program binds it anew; a fresh one refuses until the program listens.
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < Deadline) {
    if (access(Path.c_str(), F_OK) == 0) {
      Exchange E = exchange(Path, Request, Reply, Why);
      if (E != Exchange::Stale)
        return E;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  Why = "process " + std::to_string(Pid) + " did not open its control socket " + Path +
        " within 5 s (its standard error may say why)";
  return Exchange::Failed;
}

popcorn_control_request makeRequest(uint32_t Type, int Node, int Tid) {
  popcorn_control_request Q = {};
  Q.magic = POPCORN_CONTROL_MAGIC;
  Q.size = sizeof Q;
  Q.version = POPCORN_CONTROL_VERSION;
  Q.type = Type;
  Q.node = Node;
  Q.tid = Tid;
  return Q;
}

namespace {
struct Descriptor {
  int Fd;
  ~Descriptor() {
    if (Fd >= 0)
      close(Fd);
  }
};
} // namespace

Exchange exchange(const std::string &Path, const popcorn_control_request &Request,
                  popcorn_control_reply &Reply, std::string &Why) {
  sockaddr_un Address = {};
  Address.sun_family = AF_UNIX;
  if (Path.size() >= sizeof Address.sun_path) {
    Why = Path + ": the name is too long for a socket";
    return Exchange::Failed;
  }
  memcpy(Address.sun_path, Path.c_str(), Path.size() + 1);
  Descriptor S{socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)};
  if (S.Fd < 0) {
    Why = std::string("socket: ") + strerror(errno);
    return Exchange::Failed;
  }
  // A program that does not answer (stopped, or stuck) must not hang us.
  timeval Timeout = {5, 0};
  setsockopt(S.Fd, SOL_SOCKET, SO_RCVTIMEO, &Timeout, sizeof Timeout);
  setsockopt(S.Fd, SOL_SOCKET, SO_SNDTIMEO, &Timeout, sizeof Timeout);
  if (connect(S.Fd, reinterpret_cast<sockaddr *>(&Address), sizeof Address) != 0) {
    int Error = errno;
    Why = Path + ": " + strerror(Error);
    if (Error == ECONNREFUSED || Error == ENOENT)
      return Exchange::Stale;
    return Error == EACCES || Error == EPERM ? Exchange::Denied : Exchange::Failed;
  }
  if (write(S.Fd, &Request, sizeof Request) != ssize_t(sizeof Request)) {
    Why = Path + ": cannot send the request: " + strerror(errno);
    return Exchange::Failed;
  }
  size_t Got = 0;
  auto *Into = reinterpret_cast<char *>(&Reply);
  while (Got < sizeof Reply) {
    ssize_t N = read(S.Fd, Into + Got, sizeof Reply - Got);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Why = Path + (N == 0 ? ": the program closed the connection without an answer"
                           : std::string(": no answer: ") + strerror(errno));
      return Exchange::Failed;
    }
    Got += size_t(N);
  }
  if (Reply.magic != POPCORN_CONTROL_MAGIC || Reply.size != sizeof Reply ||
      Reply.version != POPCORN_CONTROL_VERSION) {
    Why = Path + ": the answer is not of this popcorn-ctl's protocol version " +
          std::to_string(POPCORN_CONTROL_VERSION);
    return Exchange::Failed;
  }
  Reply.message[sizeof Reply.message - 1] = 0;
  return Exchange::Answered;
}

} // namespace popcorn
