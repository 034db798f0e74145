//===- popcorn-node.cpp - A node started by hand, reached over TCP --------===//
//
// popcorn-node --listen [HOST:]PORT [--key FILE]
// popcorn-node --stdio [--key FILE]
// popcorn-node --new-key [FILE]
//
// Waits for home nodes of popcorn programs (POPCORN_NODES entry
// ID:ISA:tcp:HOST:PORT).  Each connection is served by a process of its
// own: it authenticates the home node with the user's key file (nothing
// is read from a connection before that), receives the program's image for
// the node's ISA, and becomes that node: the image runs natively, or under
// qemu-user for the other ISA, on the connection.
//
// With --stdio the connection is the standard input and output, as home
// starts it through ssh (ID:ISA:ssh:[USER@]HOST) or another launcher.
// Those are two streams, maybe pipes, and a node's link is one socket:
// this process relays between them and a socket pair whose other end
// becomes the node, and ends with the node's status.
//
// It listens on 127.0.0.1 unless a HOST says otherwise.  The link is
// authenticated, not encrypted: across an untrusted network, tunnel it.
//
//===----------------------------------------------------------------------===//
#include "link/Authentication.h"
#include "link/KeyFile.h"
#include <arpa/inet.h>
#include <elf.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace popcorn;

namespace {

constexpr uint64_t MaxImageBytes = uint64_t(1) << 30;

struct Options {
  const char *Listen = nullptr;
  const char *KeyFile = nullptr;
  bool NewKey = false;
  bool Stdio = false;
};

const char *const Usage = "usage: popcorn-node --listen [HOST:]PORT [--key FILE]\n"
                         "       popcorn-node --stdio [--key FILE]\n"
                         "       popcorn-node --new-key [FILE]\n"
                         "Runs the threads that programs built with popcorn-clang send it over TCP,\n"
                         "or over its standard input and output (started by ssh or srun).\n";

[[noreturn]] void usage(const char *Why) {
  fprintf(stderr, "popcorn-node: %s\n%s", Why, Usage);
  exit(2);
}

Options readOptions(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; I++) {
    if (!strcmp(Argv[I], "--help") || !strcmp(Argv[I], "-h")) {
      fputs(Usage, stdout);
      exit(0);
    }
    if (!strcmp(Argv[I], "--listen") && I + 1 < Argc)
      O.Listen = Argv[++I];
    else if (!strcmp(Argv[I], "--stdio"))
      O.Stdio = true;
    else if (!strcmp(Argv[I], "--key") && I + 1 < Argc)
      O.KeyFile = Argv[++I];
    else if (!strcmp(Argv[I], "--new-key"))
      O.NewKey = true, O.KeyFile = I + 1 < Argc ? Argv[++I] : nullptr;
    else
      usage(("unknown argument '" + std::string(Argv[I]) + "'").c_str());
  }
  if (!O.NewKey && !O.Listen && !O.Stdio)
    usage("nothing to do");
  if (O.NewKey + !!O.Listen + O.Stdio > 1)
    usage("--listen, --stdio and --new-key go alone");
  return O;
}

const char *isaOf(uint16_t Machine) {
  return Machine == EM_X86_64 ? "x86_64" : Machine == EM_AARCH64 ? "aarch64" : nullptr;
}

uint16_t hostMachine() {
#if defined(__x86_64__)
  return EM_X86_64;
#else
  return EM_AARCH64;
#endif
}

// "[HOST:]PORT" as a listening socket; HOST defaults to the loopback.  An
// IPv6 HOST may be in brackets, as in POPCORN_NODES: [::1]:7447.
int listenOn(const char *Where) {
  std::string Host = "127.0.0.1", Port = Where;
  if (const char *Colon = strrchr(Where, ':')) {
    Host.assign(Where, Colon);
    Port = Colon + 1;
  }
  if (Host.size() > 2 && Host.front() == '[' && Host.back() == ']')
    Host = Host.substr(1, Host.size() - 2);
  addrinfo Hints = {}, *Found;
  Hints.ai_socktype = SOCK_STREAM;
  Hints.ai_flags = AI_PASSIVE;
  if (int Error = getaddrinfo(Host.c_str(), Port.c_str(), &Hints, &Found)) {
    fprintf(stderr, "popcorn-node: %s: %s\n", Where, gai_strerror(Error));
    exit(1);
  }
  int Fd = socket(Found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int One = 1;
  setsockopt(Fd, SOL_SOCKET, SO_REUSEADDR, &One, sizeof One);
  if (Fd < 0 || bind(Fd, Found->ai_addr, Found->ai_addrlen) || listen(Fd, 16)) {
    fprintf(stderr, "popcorn-node: cannot listen on %s: %s\n", Where, strerror(errno));
    exit(1);
  }
  freeaddrinfo(Found);
  return Fd;
}

std::string addressOf(const sockaddr_storage &A) {
  char Host[INET6_ADDRSTRLEN] = "?", Port[8] = "?";
  getnameinfo(reinterpret_cast<const sockaddr *>(&A), sizeof A, Host, sizeof Host, Port,
              sizeof Port, NI_NUMERICHOST | NI_NUMERICSERV);
  return std::string(Host) + ":" + Port;
}

// Tells home why this node cannot serve, logs it and ends the connection.
[[noreturn]] void refuse(Channel &Link, const std::string &Peer, const std::string &Why) {
  fprintf(stderr, "popcorn-node: %s: %s\n", Peer.c_str(), Why.c_str());
  Link.send(MessageType::NodeError, Why.data(), uint32_t(Why.size()));
  _exit(1);
}

// The image home sent, in a memory file; its ELF header checked against
// the ISA home says it is for.
int receiveImage(Channel &Link, const std::string &Peer, ImageMessage &M) {
  MessageHeader H;
  if (!Link.receiveHeader(H, Link.TimeoutMs) || H.Type != MessageType::Image ||
      H.Bytes <= sizeof M || H.Bytes > MaxImageBytes || !Link.receivePayload(&M, sizeof M))
    refuse(Link, Peer, "no program image after authentication");
  uint64_t Bytes = H.Bytes - sizeof M;
  int Image = memfd_create("popcorn-node-image", 0);
  if (Image < 0 || ftruncate(Image, off_t(Bytes)))
    refuse(Link, Peer, std::string("no memory for the image: ") + strerror(errno));
  void *Map = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, Image, 0);
  if (Map == MAP_FAILED || !Link.receivePayload(Map, Bytes))
    refuse(Link, Peer, "the image did not arrive");
  auto *Header = static_cast<const Elf64_Ehdr *>(Map);
  bool Valid = Bytes >= sizeof *Header && !memcmp(Header->e_ident, ELFMAG, SELFMAG) &&
               Header->e_ident[EI_CLASS] == ELFCLASS64 && Header->e_machine == M.Machine &&
               isaOf(M.Machine) && M.Node > 0 && M.Node < MaxNodes;
  munmap(Map, Bytes);
  if (!Valid)
    refuse(Link, Peer, "the image is not a 64-bit ELF executable of the ISA it claims");
  return Image;
}

// TCP's settings are for a connection; --stdio's socket pair has none.
bool isUnixSocket(int Fd) {
  sockaddr_storage Address;
  socklen_t Size = sizeof Address;
  return !getsockname(Fd, reinterpret_cast<sockaddr *>(&Address), &Size) &&
         Address.ss_family == AF_UNIX;
}

// One connection, in a process of its own: becomes the node or ends.
// The exit status that tells the launcher how the node ended.
int statusOf(int Status) {
  return WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : WEXITSTATUS(Status);
}

// Waits for the node in process Node and, if a signal killed it, tells
// home last on its link: home has no process of the node's to wait for,
// and ends by that signal as it would for a node of its own machine.
[[noreturn]] void reportEnd(Channel &Link, pid_t Node, const std::string &Peer,
                            const ImageMessage &M) {
  int Status = 0;
  while (waitpid(Node, &Status, 0) < 0 && errno == EINTR)
    ;
  if (WIFSIGNALED(Status)) {
    fprintf(stderr, "popcorn-node: %s: node %u (%s) killed by signal %d\n", Peer.c_str(),
            unsigned(M.Node), isaOf(M.Machine), WTERMSIG(Status));
    NodeEndedMessage Ended = {Status};
    Link.send(MessageType::NodeEnded, &Ended, sizeof Ended); // home may be gone too
  }
  _exit(statusOf(Status));
}

[[noreturn]] void serve(int Fd, const std::string &Peer, const LinkKey &Key) {
  BufferedChannel Link;
  Link.open(Fd);
  Link.Exact = true; // home's greeting follows the image at once, for the node
  Link.TimeoutMs = DefaultTimeoutMs;
  if (!isUnixSocket(Fd))
    configureTcpLink(Fd, Link.TimeoutMs);
  switch (authenticateHome(Link, Key)) {
  case AuthResult::Accepted:
    break;
  case AuthResult::Refused:
    fprintf(stderr, "popcorn-node: %s failed authentication; connection dropped\n",
            Peer.c_str());
    _exit(1);
  case AuthResult::Lost:
    fprintf(stderr, "popcorn-node: %s: %s before authentication; connection dropped\n",
            Peer.c_str(), Link.TimedOut ? "silent" : "malformed or closed");
    _exit(1);
  }
  ImageMessage M;
  int Image = receiveImage(Link, Peer, M);
  const char *Isa = isaOf(M.Machine);
  fprintf(stderr, "popcorn-node: %s: node %u (%s)\n", Peer.c_str(), unsigned(M.Node), Isa);
  // Without a process to wait for it (no fork), the node runs unreported.
  pid_t Node = fork();
  if (Node > 0) {
    close(Image); // the node's own copy keeps it
    reportEnd(Link, Node, Peer, M);
  }
  // The link and the image stay open across exec.
  int NodeLink = dup(Fd), NodeImage = dup(Image);
  std::string Path = "/proc/self/fd/" + std::to_string(NodeImage);
  std::string Env = "POPCORN_NODE=" + std::to_string(M.Node) + ":" + std::to_string(NodeLink);
  std::string Qemu = std::string("qemu-") + Isa;
  std::vector<char *> Envp = {Env.data()};
  for (char **V = environ; *V; V++)
    if (!strncmp(*V, "QEMU_", 5))
      Envp.push_back(*V);
  Envp.push_back(nullptr);
  if (M.Machine == hostMachine()) {
    char *Argv[] = {Path.data(), nullptr};
    execve(Path.c_str(), Argv, Envp.data());
  } else {
    char *Argv[] = {Qemu.data(), Path.data(), nullptr};
    execvpe(Qemu.c_str(), Argv, Envp.data());
    if (errno == ENOENT)
      refuse(Link, Peer, Qemu + " is not installed on this node");
  }
  refuse(Link, Peer, std::string("cannot run the ") + Isa + " image: " + strerror(errno));
}

// Copies From to To until From ends or To is gone.
void copyStream(int From, int To) {
  char Buffer[64 * 1024];
  for (;;) {
    ssize_t Got = read(From, Buffer, sizeof Buffer);
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got <= 0)
      return;
    for (ssize_t Done = 0; Done < Got;) {
      ssize_t Put = write(To, Buffer + Done, size_t(Got - Done));
      if (Put < 0 && errno == EINTR)
        continue;
      if (Put <= 0)
        return;
      Done += Put;
    }
  }
}

// --stdio: the node in a child on a socket pair, relayed to the standard
// streams.  Home's end closing (ssh gone) is the end of the node's input;
// the node's ending is the end of home's.
[[noreturn]] void serveStdio(const LinkKey &Key) {
  int Pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair)) {
    fprintf(stderr, "popcorn-node: no socket pair: %s\n", strerror(errno));
    exit(1);
  }
  signal(SIGPIPE, SIG_IGN);
  pid_t Node = fork();
  if (Node < 0) {
    fprintf(stderr, "popcorn-node: cannot start the node: %s\n", strerror(errno));
    exit(1);
  }
  if (Node == 0) {
    close(Pair[0]);
    // The launcher's streams are this process's to relay: the node
    // holding them would keep them open after this process ends.
    int Null = open("/dev/null", O_RDWR);
    dup2(Null, 0);
    dup2(Null, 1);
    signal(SIGPIPE, SIG_DFL);
    serve(Pair[1], "home over standard input", Key);
  }
  close(Pair[1]);
  std::thread ToNode([&] {
    copyStream(0, Pair[0]);
    shutdown(Pair[0], SHUT_WR);
  });
  ToNode.detach(); // it may wait on a quiet input to the end
  copyStream(Pair[0], 1);
  close(1);
  int Status = 0;
  while (waitpid(Node, &Status, 0) < 0 && errno == EINTR)
    ;
  _exit(statusOf(Status));
}

// Ends the processes of connections and nodes that have ended, and says
// which crashed: a node's crash is the program's to explain, a
// connection's is a bug here.
void reapNodes() {
  int Status;
  for (pid_t Pid; (Pid = waitpid(-1, &Status, WNOHANG)) > 0;)
    if (WIFSIGNALED(Status))
      fprintf(stderr, "popcorn-node: process %d killed by signal %d\n", int(Pid),
              WTERMSIG(Status));
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = readOptions(Argc, Argv);
  char Path[4096], Why[512];
  if (O.KeyFile)
    snprintf(Path, sizeof Path, "%s", O.KeyFile);
  else if (!keyFilePath(Path, sizeof Path))
    usage("no key file: give --key FILE, or set POPCORN_KEY_FILE or HOME");
  if (O.NewKey) {
    if (!writeNewKeyFile(Path, Why, sizeof Why)) {
      fprintf(stderr, "popcorn-node: %s\n", Why);
      return 1;
    }
    printf("popcorn-node: new key in %s; copy it to the machines that run your programs\n",
           Path);
    return 0;
  }
  LinkKey Key;
  if (!readKeyFile(Path, Key, Why, sizeof Why)) {
    fprintf(stderr, "popcorn-node: %s (popcorn-node --new-key makes one)\n", Why);
    return 1;
  }
  if (O.Stdio)
    serveStdio(Key);
  int Listener = listenOn(O.Listen);
  sockaddr_storage Bound;
  socklen_t Size = sizeof Bound;
  getsockname(Listener, reinterpret_cast<sockaddr *>(&Bound), &Size);
  // The port actually bound (PORT 0 lets the kernel choose one).
  printf("popcorn-node: listening on %s\n", addressOf(Bound).c_str());
  fflush(stdout);
  signal(SIGPIPE, SIG_IGN);
  for (;;) {
    reapNodes();
    pollfd Poll = {Listener, POLLIN, 0};
    if (poll(&Poll, 1, 1000) != 1)
      continue;
    sockaddr_storage From;
    socklen_t FromSize = sizeof From;
    int Fd = accept4(Listener, reinterpret_cast<sockaddr *>(&From), &FromSize, SOCK_CLOEXEC);
    if (Fd < 0) {
      if (errno != EINTR && errno != ECONNABORTED)
        fprintf(stderr, "popcorn-node: accept: %s\n", strerror(errno));
      continue;
    }
    pid_t Child = fork();
    if (Child == 0) {
      close(Listener);
      serve(Fd, addressOf(From), Key);
    }
    if (Child < 0)
      fprintf(stderr, "popcorn-node: cannot serve %s: %s\n", addressOf(From).c_str(),
              strerror(errno));
    close(Fd);
  }
}
