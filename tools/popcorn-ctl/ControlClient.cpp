//===- ControlClient.cpp - Talking to a program's control socket ----------===//
#include "ControlClient.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
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
