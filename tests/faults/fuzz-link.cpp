//===- fuzz-link.cpp - Malformed messages against both ends of a node link -===//
//
// fuzz-link node HOST:PORT KEY_FILE COUNT
//   COUNT connections to popcorn-node: random bytes, truncated and forged
//   authentication, images of wrong sizes and contents.  Then one honest
//   connection must still be answered (the node is alive and serving).
// fuzz-link context PROGRAM COUNT
//   COUNT remote contexts of PROGRAM (this ISA's, started as home starts
//   them), each fed random, truncated or mutated messages at one stage of
//   its start: before authentication, as the greeting, or as the thread.
//   Each must end by itself, with status 0 or 1, within the time limit.
//
// Every outcome is checked; the first failure ends the run with status 1.
//
//===----------------------------------------------------------------------===//
#include "link/Authentication.h"
#include "link/KeyFile.h"
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <random>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vector>

using namespace popcorn;

namespace {

std::mt19937_64 Random(20261123);

uint64_t below(uint64_t N) { return N ? Random() % N : 0; }

std::vector<uint8_t> randomBytes(size_t N) {
  std::vector<uint8_t> B(N);
  for (auto &Byte : B)
    Byte = uint8_t(Random());
  return B;
}

[[noreturn]] void failed(const std::string &What) {
  fprintf(stderr, "FAIL: %s\n", What.c_str());
  exit(1);
}

void sendRaw(int Fd, const void *Data, size_t N) {
  // The peer may close first: that is one of the outcomes, not an error.
  send(Fd, Data, N, MSG_NOSIGNAL);
}

void sendMessage(int Fd, MessageType Type, const std::vector<uint8_t> &Payload,
                 uint32_t ClaimedBytes) {
  MessageHeader H{Type, ClaimedBytes};
  sendRaw(Fd, &H, sizeof H);
  sendRaw(Fd, Payload.data(), Payload.size());
}

// A payload of Bytes claimed, of which a random part (or all) is sent.
void sendMaybeTruncated(int Fd, MessageType Type, std::vector<uint8_t> Payload) {
  uint32_t Claimed = uint32_t(Payload.size());
  if (below(3) == 0)
    Payload.resize(below(Payload.size() + 1));
  sendMessage(Fd, Type, Payload, Claimed);
}

// Reads what the peer says until it closes; false if it is still talking
// or silent after Seconds.
bool drainsWithin(int Fd, int Seconds) {
  time_t End = time(nullptr) + Seconds;
  char Buffer[4096];
  while (time(nullptr) < End) {
    pollfd Poll = {Fd, POLLIN, 0};
    if (poll(&Poll, 1, 200) != 1)
      continue;
    ssize_t N = recv(Fd, Buffer, sizeof Buffer, 0);
    if (N <= 0)
      return true;
  }
  return false;
}

// Whether process Pid ends within Seconds; its wait status in Status.
bool endsWithin(pid_t Pid, int Seconds, int &Status) {
  for (int Tenths = 0; Tenths < Seconds * 10; Tenths++) {
    if (waitpid(Pid, &Status, WNOHANG) == Pid)
      return true;
    usleep(100000);
  }
  return false;
}

// Home's side of authentication under Key, done honestly.
bool authenticate(int Fd, const LinkKey &Key) {
  BufferedChannel Link;
  Link.Fd = Fd;
  Link.TimeoutMs = 5000;
  return authenticateNode(Link, Key) == AuthResult::Accepted;
}

//===-- Against popcorn-node ----------------------------------------------===//

int connectTo(const char *Where) {
  std::string Host(Where, strrchr(Where, ':')), Port = strrchr(Where, ':') + 1;
  addrinfo Hints = {}, *Found;
  Hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(Host.c_str(), Port.c_str(), &Hints, &Found))
    failed(std::string("cannot resolve ") + Where);
  int Fd = socket(Found->ai_family, SOCK_STREAM, 0);
  if (connect(Fd, Found->ai_addr, Found->ai_addrlen))
    failed(std::string("popcorn-node at ") + Where + " does not accept connections");
  freeaddrinfo(Found);
  return Fd;
}

void attackNode(int Fd, const LinkKey &Key, unsigned Kind) {
  switch (Kind) {
  case 0: // noise
    sendRaw(Fd, randomBytes(below(300)).data(), below(300));
    break;
  case 1: // a forged answer to the challenge
    sendMaybeTruncated(Fd, MessageType::AuthResponse, randomBytes(sizeof(AuthResponseMessage)));
    break;
  case 2: // an answer of the wrong size or type
    sendMessage(Fd, MessageType(below(20)), randomBytes(below(64)), uint32_t(Random()));
    break;
  case 3: { // honest authentication, then a broken image
    if (!authenticate(Fd, Key))
      failed("an honest connection was refused");
    std::vector<uint8_t> Image = randomBytes(sizeof(ImageMessage) + below(5000));
    if (below(2)) { // a plausible header: the ELF check must catch it
      memcpy(Image.data(), "\x3e\0\1\0\0\0\0\0", 8);
      if (Image.size() > 16)
        memcpy(Image.data() + 8, "\177ELF\2\1\1", 7);
    }
    sendMaybeTruncated(Fd, MessageType::Image, Image);
    break;
  }
  default: // honest authentication, then nothing
    if (!authenticate(Fd, Key))
      failed("an honest connection was refused");
    break;
  }
  shutdown(Fd, SHUT_WR);
}

int fuzzNode(const char *Where, const char *KeyPath, unsigned Count) {
  LinkKey Key;
  char Why[512];
  if (!readKeyFile(KeyPath, Key, Why, sizeof Why))
    failed(Why);
  for (unsigned I = 0; I < Count; I++) {
    int Fd = connectTo(Where);
    unsigned Kind = unsigned(below(5));
    attackNode(Fd, Key, Kind);
    if (!drainsWithin(Fd, 15))
      failed("popcorn-node kept connection " + std::to_string(I) + " (kind " +
             std::to_string(Kind) + ") open");
    close(Fd);
  }
  // Still serving: an honest home gets through to the image check.
  int Fd = connectTo(Where);
  if (!authenticate(Fd, Key))
    failed("after the fuzzing, an honest connection was refused");
  ImageMessage M = {62, 1, 0};
  std::vector<uint8_t> Image(sizeof M + 64);
  memcpy(Image.data(), &M, sizeof M);
  sendMessage(Fd, MessageType::Image, Image, uint32_t(Image.size()));
  MessageHeader H;
  if (recv(Fd, &H, sizeof H, MSG_WAITALL) != sizeof H || H.Type != MessageType::NodeError)
    failed("after the fuzzing, popcorn-node did not answer an invalid image with an error");
  close(Fd);
  printf("popcorn-node: %u malformed connections, all closed; still serving\n", Count);
  return 0;
}

//===-- Against a remote context ------------------------------------------===//

HelloMessage validHello() {
  HelloMessage Hello = {};
  Hello.HomePid = uint32_t(getpid());
  Hello.HomeMachine = 62;
  Hello.NodeCount = 2;
  Hello.NodeMachines[0] = Hello.NodeMachines[1] = 62;
  Hello.TimeoutMs = 2000;
  Hello.ChildOfHome = 0; // this process is its parent, not its home
  return Hello;
}

std::vector<uint8_t> mutated(const void *Data, size_t N) {
  std::vector<uint8_t> B(static_cast<const uint8_t *>(Data),
                         static_cast<const uint8_t *>(Data) + N);
  for (uint64_t Flips = 1 + below(4); Flips--;)
    B[below(N)] ^= uint8_t(1u << below(8));
  return B;
}

// What a context is fed, by stage.
void attackContext(int Fd, const LinkKey &Key, unsigned Stage) {
  if (Stage == 0) { // before authentication
    if (below(2))
      sendRaw(Fd, randomBytes(below(200)).data(), below(200));
    else
      sendMaybeTruncated(Fd, MessageType::AuthResponse,
                         randomBytes(sizeof(AuthResponseMessage)));
    return;
  }
  if (!authenticate(Fd, Key))
    failed("a context refused its own key");
  HelloMessage Hello = validHello();
  if (Stage == 1) { // the greeting
    if (below(2))
      sendMaybeTruncated(Fd, MessageType::Hello, mutated(&Hello, sizeof Hello));
    else
      sendMessage(Fd, MessageType(below(20)), randomBytes(below(400)), uint32_t(below(1000)));
    return;
  }
  sendMessage(Fd, MessageType::Hello,
              std::vector<uint8_t>(reinterpret_cast<uint8_t *>(&Hello),
                                   reinterpret_cast<uint8_t *>(&Hello) + sizeof Hello),
              sizeof Hello);
  MessageHeader H;
  if (recv(Fd, &H, sizeof H, MSG_WAITALL) != sizeof H || H.Type != MessageType::Ready)
    failed("a context did not answer a valid greeting with Ready");
  // The thread: random registers and stacks, or another message.
  if (below(2))
    sendMaybeTruncated(Fd, MessageType::Migrate,
                       randomBytes(sizeof(MigrateMessage) + below(256)));
  else
    sendMessage(Fd, MessageType(below(20)), randomBytes(below(400)), uint32_t(below(1000)));
}

int fuzzContexts(const char *Program, unsigned Count) {
  LinkKey Key;
  for (unsigned I = 0; I < Count; I++) {
    int Link[2], KeyPipe[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Link) || pipe(KeyPipe))
      failed("no socket or pipe");
    for (auto &Byte : Key.Bytes)
      Byte = uint8_t(Random());
    if (write(KeyPipe[1], Key.Bytes, sizeof Key.Bytes) != sizeof Key.Bytes)
      failed("cannot write the key");
    close(KeyPipe[1]);
    pid_t Pid = fork();
    if (Pid == 0) {
      int ChildLink = dup(Link[1]);
      std::string Env = "POPCORN_NODE=1:" + std::to_string(ChildLink) + ":" +
                        std::to_string(KeyPipe[0]);
      char *Argv[] = {const_cast<char *>(Program), nullptr};
      char *Envp[] = {Env.data(), nullptr};
      int Null = open("/dev/null", 1);
      dup2(Null, 2); // the contexts' complaints are expected
      execve(Program, Argv, Envp);
      _exit(127);
    }
    close(Link[1]);
    close(KeyPipe[0]);
    unsigned Stage = unsigned(below(3));
    attackContext(Link[0], Key, Stage);
    shutdown(Link[0], SHUT_WR);
    bool Drained = drainsWithin(Link[0], 15);
    close(Link[0]);
    int Status;
    if (!Drained || !endsWithin(Pid, 15, Status)) {
      kill(Pid, SIGKILL);
      failed("context " + std::to_string(I) + " (stage " + std::to_string(Stage) +
             ") did not end");
    }
    if (WIFSIGNALED(Status))
      failed("context " + std::to_string(I) + " (stage " + std::to_string(Stage) +
             ") was killed by signal " + std::to_string(WTERMSIG(Status)));
    if (WEXITSTATUS(Status) > 1)
      failed("context " + std::to_string(I) + " (stage " + std::to_string(Stage) +
             ") ended with status " + std::to_string(WEXITSTATUS(Status)));
  }
  printf("contexts: %u fed malformed messages, all ended with status 0 or 1\n", Count);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  signal(SIGPIPE, SIG_IGN);
  if (Argc == 5 && !strcmp(Argv[1], "node"))
    return fuzzNode(Argv[2], Argv[3], unsigned(atoi(Argv[4])));
  if (Argc == 4 && !strcmp(Argv[1], "context"))
    return fuzzContexts(Argv[2], unsigned(atoi(Argv[3])));
  fprintf(stderr, "usage: fuzz-link node HOST:PORT KEY_FILE COUNT\n"
                  "       fuzz-link context PROGRAM COUNT\n");
  return 2;
}
