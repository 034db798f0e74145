//===- popcorn-ctl.cpp - Steer running popcorn programs from outside ------===//
//
//   popcorn-ctl ps                        this user's running programs, and
//                                         their threads
//   popcorn-ctl migrate PID[/TID] NODE    move a thread at its next point
//   popcorn-ctl nodes PID                 a program's node table
//
// Each running program (its home process) answers on its control socket
// (runtime/control/ControlSocket.h), which it opens when first asked.
// Exit status: 0 done, 1 the request failed or was refused, 2 bad
// arguments.
//
//===----------------------------------------------------------------------===//
#include "ControlClient.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace popcorn;

namespace {

const char *Usage = "usage: popcorn-ctl ps\n"
                    "       popcorn-ctl migrate PID[/TID] NODE\n"
                    "       popcorn-ctl nodes PID\n"
                    "Steers running programs built with popcorn-clang (this user's).\n";

int usage(const char *Why = nullptr) {
  if (Why)
    fprintf(stderr, "popcorn-ctl: %s\n", Why);
  fputs(Usage, stderr);
  return 2;
}

int fail(const std::string &Why) {
  fprintf(stderr, "popcorn-ctl: %s\n", Why.c_str());
  return 1;
}

// A decimal number and nothing else, or -1.
long number(const std::string &Text) {
  if (Text.empty() || Text.size() > 9 ||
      !std::all_of(Text.begin(), Text.end(), [](char C) { return C >= '0' && C <= '9'; }))
    return -1;
  return strtol(Text.c_str(), nullptr, 10);
}

const char *isaOf(uint16_t Machine) {
  return Machine == 62 ? "x86_64" : Machine == 183 ? "aarch64" : "?";
}

const char *launcherOf(uint8_t Launcher) {
  return Launcher == POPCORN_LAUNCHER_QEMU ? "qemu"
         : Launcher == POPCORN_LAUNCHER_TCP ? "tcp"
         : Launcher == POPCORN_LAUNCHER_SSH ? "ssh"
                                            : "native";
}

// Where node Node of R's program runs: home, this host, or the one named.
std::string whereIs(const popcorn_control_reply &R, int Node) {
  if (Node == 0)
    return "home";
  if (Node < 0 || Node >= POPCORN_CONTROL_MAX_NODES)
    return "?";
  const popcorn_control_node &N = R.nodes[Node];
  if (!N.host[0])
    return "this host";
  return std::string(launcherOf(N.launcher)) + ":" +
         std::string(N.host, strnlen(N.host, sizeof N.host));
}

std::string commandOf(int Pid) {
  std::ifstream Comm("/proc/" + std::to_string(Pid) + "/comm");
  std::string Name;
  std::getline(Comm, Name);
  return Name.empty() ? "?" : Name;
}

bool processExists(int Pid) {
  struct stat S;
  return stat(("/proc/" + std::to_string(Pid)).c_str(), &S) == 0;
}

// The exchange with process Pid at its socket, asking a home that has
// not opened it yet to open it.
Exchange reach(int Pid, const ProcessKind &Kind, std::string &Path,
               const popcorn_control_request &Request, popcorn_control_reply &Reply,
               std::string &Why) {
  if (Kind.Home)
    Path = Kind.Socket;
  Exchange E = Path.empty() || access(Path.c_str(), F_OK) != 0
                   ? Exchange::Stale
                   : exchange(Path, Request, Reply, Why);
  if (E == Exchange::Stale && Kind.Home && !Kind.ControlOff)
    E = askToOpen(Pid, Kind, Request, Reply, Why);
  return E;
}

// Why process Pid, which has no socket and is no home, cannot be asked.
std::string unreachable(int Pid, const ProcessKind &Kind) {
  std::string Pids = std::to_string(Pid);
  struct stat S;
  if (stat(("/proc/" + Pids).c_str(), &S) != 0)
    return "no process " + Pids;
  if (S.st_uid != geteuid())
    return "process " + Pids + " belongs to another user: permission denied";
  if (Kind.ControlOff)
    return "process " + Pids + " (" + commandOf(Pid) +
           ") runs with POPCORN_CONTROL=off: it has no control socket";
  return "process " + Pids + " (" + commandOf(Pid) +
         ") is not a popcorn program: it has no control socket";
}

// Status of process Pid into Reply, or a message and false.
bool askProcess(int Pid, const popcorn_control_request &Request, popcorn_control_reply &Reply,
                std::string &Why) {
  ProcessKind Kind = kindOf(Pid);
  std::string Path = socketOf(Pid);
  std::string Pids = std::to_string(Pid);
  if ((Path.empty() && !Kind.Home) || Kind.ControlOff) {
    Why = unreachable(Pid, Kind);
    return false;
  }
  switch (reach(Pid, Kind, Path, Request, Reply, Why)) {
  case Exchange::Answered:
    return true;
  case Exchange::Stale:
    if (!processExists(Pid)) {
      unlink(Path.c_str());
      Why = "no process " + Pids + " (removed the socket it left: " + Path + ")";
    } else {
      Why = "process " + Pids + " does not answer on " + Path +
            " (a socket left by an earlier program with this PID?)";
    }
    return false;
  case Exchange::Denied:
    Why = "permission denied: " + Why;
    return false;
  case Exchange::Failed:
    return false;
  }
  return false;
}

// This user's home processes whose sockets go in Dir, open or not yet.
// Only those are asked to open theirs: a program started in another
// session (another XDG_RUNTIME_DIR, or none) is not disturbed; once open,
// its socket is listed from its directory.
std::vector<int> homesIn(const std::string &Dir) {
  std::vector<int> Pids;
  DIR *Proc = opendir("/proc");
  if (!Proc)
    return Pids;
  while (dirent *E = readdir(Proc)) {
    long Pid = number(E->d_name);
    if (Pid <= 0 || Pid == getpid())
      continue;
    ProcessKind Kind = kindOf(int(Pid));
    if (Kind.Home && !Kind.ControlOff && Kind.Socket.substr(0, Kind.Socket.rfind('/')) == Dir)
      Pids.push_back(int(Pid));
  }
  closedir(Proc);
  return Pids;
}

int ps() {
  std::vector<std::string> Dirs = controlDirectories();
  std::vector<int> Pids = homesIn(Dirs.front());
  for (const std::string &Dir : Dirs) {
    DIR *D = opendir(Dir.c_str());
    if (!D)
      continue;
    while (dirent *E = readdir(D))
      if (long Pid = number(E->d_name); Pid > 0)
        Pids.push_back(int(Pid));
    closedir(D);
  }
  std::sort(Pids.begin(), Pids.end());
  Pids.erase(std::unique(Pids.begin(), Pids.end()), Pids.end());
  printf("%-8s %-16s %-5s %-8s %10s %8s  %s\n", "PID", "COMMAND", "NODE", "ISA", "MIGRATIONS",
         "PAGES", "WHERE");
  for (int Pid : Pids) {
    popcorn_control_reply R;
    std::string Why;
    std::string Path = socketOf(Pid);
    // The socket of a process that is gone is stale, whoever still holds
    // it: a child the program forked has a copy until it ends, and answers
    // nothing (the program killed meanwhile, ps waited for the timeout).
    if (!processExists(Pid)) {
      unlink(Path.c_str());
      continue;
    }
    Exchange E = reach(Pid, kindOf(Pid), Path, makeRequest(POPCORN_CONTROL_STATUS), R, Why);
    if (E == Exchange::Stale) {
      // Nobody listens: the program ended without removing it (killed).
      unlink(Path.c_str());
      continue;
    }
    if (E != Exchange::Answered) {
      fprintf(stderr, "popcorn-ctl: %s\n", Why.c_str());
      continue;
    }
    printf("%-8d %-16s %-5d %-8s %10llu %8llu  %s\n", Pid, commandOf(Pid).c_str(), R.thread_node,
           isaOf(R.thread_machine), (unsigned long long)R.migrations,
           (unsigned long long)R.pages_fetched, whereIs(R, R.thread_node).c_str());
    // A program of several threads: a line for each, PID/TID first, as
    // migrate takes it.
    uint32_t Listed = std::min<uint32_t>(R.thread_count, POPCORN_CONTROL_MAX_THREADS);
    for (uint32_t I = 0; R.thread_count > 1 && I < Listed; I++) {
      const popcorn_control_thread &T = R.threads[I];
      std::string Id = std::to_string(Pid) + "/" + std::to_string(T.tid);
      uint16_t Machine = T.node >= 0 && T.node < POPCORN_CONTROL_MAX_NODES
                             ? R.nodes[T.node].elf_machine
                             : 0;
      printf("%-25s %-5d %-8s %10s %8s  %s\n", Id.c_str(), T.node, isaOf(Machine), "", "",
             whereIs(R, T.node).c_str());
    }
    if (R.thread_count > Listed)
      printf("%-25s %u more threads\n", "", R.thread_count - Listed);
  }
  return 0;
}

int nodes(int Pid) {
  popcorn_control_reply R;
  std::string Why;
  if (!askProcess(Pid, makeRequest(POPCORN_CONTROL_STATUS), R, Why))
    return fail(Why);
  if (R.error)
    return fail(std::to_string(Pid) + ": " + R.message);
  printf("%-5s %-8s %-9s %-8s %-8s %-20s %s\n", "NODE", "ISA", "LAUNCHER", "PID", "THREAD",
         "STATE", "WHERE");
  for (int I = 0; I < R.node_count && I < POPCORN_CONTROL_MAX_NODES; I++) {
    const popcorn_control_node &N = R.nodes[I];
    if (!N.elf_machine)
      continue;
    std::string NodePid = N.pid > 0 ? std::to_string(N.pid) : "-";
    const char *State = I == 0         ? "home"
                        : !N.started   ? "not started"
                        : N.alive      ? "started, reachable"
                                       : "started, gone";
    printf("%-5d %-8s %-9s %-8s %-8s %-20s %s\n", I, isaOf(N.elf_machine), launcherOf(N.launcher),
           NodePid.c_str(), I == R.thread_node ? "here" : "", State, whereIs(R, I).c_str());
  }
  return 0;
}

int migrate(const std::string &Target, const std::string &NodeText) {
  std::string PidText = Target, TidText;
  if (size_t Slash = Target.find('/'); Slash != std::string::npos) {
    PidText = Target.substr(0, Slash);
    TidText = Target.substr(Slash + 1);
  }
  long Pid = number(PidText), Tid = TidText.empty() ? 0 : number(TidText);
  long Node = number(NodeText);
  bool Slash = PidText.size() != Target.size();
  if (Pid <= 0 || Tid < 0 || (Slash && Tid == 0))
    return usage(("'" + Target + "' is not PID or PID/TID").c_str());
  if (Node < 0)
    return usage(("'" + NodeText + "' is not a node number").c_str());
  if (Tid) {
    if (!processExists(int(Pid)))
      return fail("no process " + PidText);
    struct stat S;
    if (stat(("/proc/" + PidText + "/task/" + TidText).c_str(), &S) != 0)
      return fail("process " + PidText + " has no thread " + TidText);
  }
  popcorn_control_reply R;
  std::string Why;
  if (!askProcess(int(Pid), makeRequest(POPCORN_CONTROL_MIGRATE, int(Node), int(Tid)), R, Why))
    return fail(Why);
  if (R.error)
    return fail(PidText + ": " + R.message);
  printf("%s: %s\n", PidText.c_str(), R.message);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  if (Args.empty())
    return usage();
  const std::string &Command = Args[0];
  if (Command == "-h" || Command == "--help") {
    fputs(Usage, stdout);
    return 0;
  }
  if (Command == "ps" && Args.size() == 1)
    return ps();
  if (Command == "nodes" && Args.size() == 2) {
    long Pid = number(Args[1]);
    if (Pid <= 0)
      return usage(("'" + Args[1] + "' is not a PID").c_str());
    return nodes(int(Pid));
  }
  if (Command == "migrate" && Args.size() == 3)
    return migrate(Args[1], Args[2]);
  if (Command == "ps" || Command == "nodes" || Command == "migrate")
    return usage(("wrong number of arguments for " + Command).c_str());
  return usage(("unknown command '" + Command + "'").c_str());
}
