//===- ChannelTest.cpp - Messages through a link's receive buffer ---------===//
//
// Home writes pages a node sends back straight into the program's memory
// (HomeNode.cpp: takePagesBack).  That relies on stream sockets leaving
// the bytes they could not copy in the link: a receive stops at a page
// the process cannot write, and the rest can still be read elsewhere.
// A channel also receives ahead of what it is asked for, into its own
// buffer: messages back to back must come apart whole, and a link that
// goes to another process must keep the next message.
//
//===----------------------------------------------------------------------===//
#include "link/Channel.h"
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace popcorn;

namespace {

constexpr uint64_t Page = 4096;

// A connected pair of TCP sockets on the loopback interface.
bool tcpPair(int Fds[2]) {
  int Listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in Address = {};
  Address.sin_family = AF_INET;
  Address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t Length = sizeof Address;
  if (Listener < 0 || bind(Listener, reinterpret_cast<sockaddr *>(&Address), sizeof Address) ||
      listen(Listener, 1) ||
      getsockname(Listener, reinterpret_cast<sockaddr *>(&Address), &Length))
    return false;
  Fds[0] = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(Fds[0], reinterpret_cast<sockaddr *>(&Address), sizeof Address))
    return false;
  Fds[1] = accept(Listener, nullptr, nullptr);
  close(Listener);
  return Fds[1] >= 0;
}

// The next message on Receiver is of Type, with exactly Payload.
void expectMessage(Channel &Receiver, MessageType Type, const std::vector<uint8_t> &Payload) {
  MessageHeader Header;
  ASSERT_TRUE(Receiver.receiveHeader(Header, 5000));
  ASSERT_EQ(Header.Type, Type);
  ASSERT_EQ(Header.Bytes, Payload.size());
  std::vector<uint8_t> Got(Payload.size());
  ASSERT_TRUE(Receiver.receivePayload(Got.data(), Got.size()));
  EXPECT_EQ(Got, Payload);
}

// Four pages, the third of them read-only, sent as one payload: the
// receive into them stops before the third page (where exactly depends on
// how the kernel cut the stream: a part it could not copy whole counts for
// nothing), and every byte it did not count is still in the link.
void stopsAtUnwritablePage(int Fds[2]) {
  std::vector<uint8_t> Sent(4 * Page);
  for (uint64_t I = 0; I < Sent.size(); I++)
    Sent[I] = uint8_t(I * 7 + I / Page);
  BufferedChannel Sender, Receiver;
  Sender.Fd = Fds[0];
  Receiver.Fd = Fds[1];
  Receiver.TimeoutMs = 5000;
  std::thread Send([&] { EXPECT_TRUE(Sender.send(MessageType::PageData, Sent.data(), 4 * Page)); });
  auto *Into = static_cast<uint8_t *>(
      mmap(nullptr, 4 * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(Into, MAP_FAILED);
  ASSERT_EQ(mprotect(Into + 2 * Page, Page, PROT_READ), 0);
  MessageHeader Header;
  ASSERT_TRUE(Receiver.receiveHeader(Header, 5000));
  ASSERT_EQ(Header.Bytes, 4 * Page);
  long Got = Receiver.receiveIntoProgram(Into, 4 * Page);
  Send.join();
  ASSERT_GE(Got, 0);
  ASSERT_LE(Got, long(2 * Page));
  EXPECT_EQ(memcmp(Into, Sent.data(), uint64_t(Got)), 0);
  EXPECT_EQ(Into[2 * Page], 0);
  std::vector<uint8_t> Rest(4 * Page - uint64_t(Got));
  ASSERT_TRUE(Receiver.receivePayload(Rest.data(), Rest.size()));
  EXPECT_EQ(memcmp(Rest.data(), Sent.data() + Got, Rest.size()), 0);
  // Nothing else came: the link is at a message boundary again.
  ASSERT_TRUE(Sender.send(MessageType::End, nullptr, 0));
  ASSERT_TRUE(Receiver.receiveHeader(Header, 5000));
  EXPECT_EQ(Header.Type, MessageType::End);
  munmap(Into, 4 * Page);
  close(Fds[0]);
  close(Fds[1]);
}

TEST(ReceiveIntoProgram, UnixSocketStopsAtUnwritablePage) {
  int Fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  stopsAtUnwritablePage(Fds);
}

TEST(ReceiveIntoProgram, TcpStopsAtUnwritablePage) {
  int Fds[2];
  ASSERT_TRUE(tcpPair(Fds));
  stopsAtUnwritablePage(Fds);
}

// A peer that ends in the middle is an error, not a short count.
TEST(ReceiveIntoProgram, PeerGoneIsAnError) {
  int Fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  uint8_t Half[Page / 2] = {1};
  ASSERT_EQ(write(Fds[0], Half, sizeof Half), long(sizeof Half));
  close(Fds[0]);
  BufferedChannel Receiver;
  Receiver.Fd = Fds[1];
  std::vector<uint8_t> Into(Page);
  EXPECT_EQ(Receiver.receiveIntoProgram(Into.data(), Page), -1);
  close(Fds[1]);
}

// Messages of every size around the buffer's, sent back to back before
// any is read, come apart with their own bytes.
TEST(Channel, MessagesBackToBack) {
  int Fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  const uint32_t Sizes[] = {0,    16, ReceiveAheadBytes - 8, ReceiveAheadBytes, 4096, 3,
                            70000, 1,  ReceiveAheadBytes + 1, 8};
  std::vector<std::vector<uint8_t>> Payloads;
  for (uint32_t Size : Sizes) {
    Payloads.emplace_back(Size);
    for (uint32_t I = 0; I < Size; I++)
      Payloads.back()[I] = uint8_t(I * 13 + Size);
  }
  BufferedChannel Sender, Receiver;
  Sender.open(Fds[0]);
  Receiver.open(Fds[1]);
  Receiver.TimeoutMs = 5000;
  std::thread Send([&] {
    for (auto &P : Payloads)
      EXPECT_TRUE(Sender.send(MessageType::PageData, P.data(), uint32_t(P.size())));
  });
  for (auto &P : Payloads)
    expectMessage(Receiver, MessageType::PageData, P);
  Send.join();
  close(Fds[0]);
  close(Fds[1]);
}

// A message followed at once by the next: an Exact channel leaves the
// next one in the link (popcorn-node execs the node, which reads home's
// greeting, on the link it read the image from); another takes it into
// its buffer.
TEST(Channel, ExactLeavesTheNextMessageInTheLink) {
  for (bool Exact : {true, false}) {
    int Fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
    BufferedChannel Sender, Receiver;
    Sender.open(Fds[0]);
    Receiver.open(Fds[1]);
    Receiver.Exact = Exact;
    std::vector<uint8_t> Image(5000, 7);
    ASSERT_TRUE(Sender.send(MessageType::Image, Image.data(), uint32_t(Image.size())));
    ASSERT_TRUE(Sender.send(MessageType::Hello, nullptr, 0));
    MessageHeader Header;
    ASSERT_TRUE(Receiver.receiveHeader(Header, 5000));
    std::vector<uint8_t> Got(Header.Bytes);
    ASSERT_TRUE(Receiver.receivePayload(Got.data(), Got.size()));
    EXPECT_EQ(Got, Image);
    MessageHeader Next;
    long Left = recv(Fds[1], &Next, sizeof Next, MSG_DONTWAIT);
    if (Exact) {
      ASSERT_EQ(Left, long(sizeof Next));
      EXPECT_EQ(Next.Type, MessageType::Hello);
    } else {
      EXPECT_EQ(Left, -1);
    }
    close(Fds[0]);
    close(Fds[1]);
  }
}

// A payload gathered from parts apart in memory (a PageSet: its header,
// the addresses, then pages from anywhere) is one message of all their
// bytes, in order; more parts than a message takes are refused, unsent.
TEST(Channel, GatheredPartsAreOnePayload) {
  int Fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  constexpr unsigned Pages = 64;
  std::vector<std::vector<uint8_t>> Page(Pages, std::vector<uint8_t>(4096));
  uint64_t Address[Pages];
  PageSetMessage Set = {Pages, 0};
  SendPart Parts[2 + Pages] = {{&Set, sizeof Set}, {Address, sizeof Address}};
  std::vector<uint8_t> Expected(reinterpret_cast<uint8_t *>(&Set),
                                reinterpret_cast<uint8_t *>(&Set) + sizeof Set);
  for (unsigned I = 0; I < Pages; I++) {
    Address[I] = uint64_t(Page[I].data());
    for (unsigned B = 0; B < 4096; B++)
      Page[I][B] = uint8_t(I * 31 + B);
    Parts[2 + I] = {Page[I].data(), 4096};
  }
  Expected.insert(Expected.end(), reinterpret_cast<uint8_t *>(Address),
                  reinterpret_cast<uint8_t *>(Address) + sizeof Address);
  for (auto &P : Page)
    Expected.insert(Expected.end(), P.begin(), P.end());
  BufferedChannel Sender, Receiver;
  Sender.Fd = Fds[0];
  Receiver.Fd = Fds[1];
  Receiver.TimeoutMs = 5000;
  SendPart TooMany[Channel::MaxPayloadParts + 1] = {};
  EXPECT_FALSE(Sender.sendGathered(MessageType::PageSet, TooMany, Channel::MaxPayloadParts + 1));
  std::thread Send([&] { EXPECT_TRUE(Sender.sendGathered(MessageType::PageSet, Parts, 2 + Pages)); });
  expectMessage(Receiver, MessageType::PageSet, Expected);
  Send.join();
  close(Fds[0]);
  close(Fds[1]);
}

} // namespace


// Waiting for a message to begin, a channel also wakes for another
// descriptor (home: a signal for the thread away), says so, and loses
// nothing of the link; a wait that times out says that instead.
TEST(Channel, HeaderWaitWokenByAnotherDescriptor) {
  int Fds[2], Wake[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  ASSERT_EQ(pipe(Wake), 0);
  BufferedChannel Sender, Receiver;
  Sender.open(Fds[0]);
  Receiver.open(Fds[1]);
  MessageHeader Header;
  EXPECT_FALSE(Receiver.receiveHeader(Header, 50, Wake[0]));
  EXPECT_TRUE(Receiver.TimedOut);
  EXPECT_FALSE(Receiver.Woken);
  ASSERT_EQ(write(Wake[1], "s", 1), 1);
  EXPECT_FALSE(Receiver.receiveHeader(Header, 5000, Wake[0]));
  EXPECT_TRUE(Receiver.Woken);
  EXPECT_FALSE(Receiver.TimedOut);
  std::vector<uint8_t> Request(24, 5);
  ASSERT_TRUE(Sender.send(MessageType::PageRequest, Request.data(), uint32_t(Request.size())));
  // The link first, while the other descriptor is still readable.
  ASSERT_TRUE(Receiver.receiveHeader(Header, 5000, Wake[0]));
  EXPECT_FALSE(Receiver.Woken);
  EXPECT_EQ(Header.Type, MessageType::PageRequest);
  std::vector<uint8_t> Got(Header.Bytes);
  ASSERT_TRUE(Receiver.receivePayload(Got.data(), Got.size()));
  EXPECT_EQ(Got, Request);
  for (int Fd : {Fds[0], Fds[1], Wake[0], Wake[1]})
    close(Fd);
}

// A node's link takes home's Steer wherever it comes, between the answers
// it waits for; another link hands it over as any message.
TEST(Channel, SteerIsTakenInPassingOnANodesLink) {
  int Fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  BufferedChannel Home, Node, Other;
  Home.Fd = Fds[0];
  Node.Fd = Other.Fd = Fds[1];
  Node.TakesSteering = true;
  int32_t Destination = 2;
  std::vector<uint8_t> Run(Page, 7);
  ASSERT_TRUE(Home.send(MessageType::Steer, &Destination, sizeof Destination));
  ASSERT_TRUE(Home.send(MessageType::PageRun, Run.data(), uint32_t(Run.size())));
  expectMessage(Node, MessageType::PageRun, Run);
  EXPECT_EQ(Node.Steered, 3); // the destination + 1
  ASSERT_TRUE(Home.send(MessageType::Steer, &Destination, sizeof Destination));
  expectMessage(Other, MessageType::Steer,
                std::vector<uint8_t>(reinterpret_cast<uint8_t *>(&Destination),
                                     reinterpret_cast<uint8_t *>(&Destination + 1)));
  close(Fds[0]);
  close(Fds[1]);
}
