//===- ChannelTest.cpp - Receiving into memory the kernel may not write ---===//
//
// Home writes pages a node sends back straight into the program's memory
// (HomeNode.cpp: takePagesBack).  That relies on stream sockets leaving
// the bytes they could not copy in the link: a receive stops at a page
// the process cannot write, and the rest can still be read elsewhere.
//
//===----------------------------------------------------------------------===//
#include "Channel.h"
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

// Four pages, the third of them read-only, sent as one payload: the
// receive into them stops before the third page (where exactly depends on
// how the kernel cut the stream: a part it could not copy whole counts for
// nothing), and every byte it did not count is still in the link.
void stopsAtUnwritablePage(int Fds[2]) {
  std::vector<uint8_t> Sent(4 * Page);
  for (uint64_t I = 0; I < Sent.size(); I++)
    Sent[I] = uint8_t(I * 7 + I / Page);
  Channel Sender, Receiver;
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
  Channel Receiver;
  Receiver.Fd = Fds[1];
  std::vector<uint8_t> Into(Page);
  EXPECT_EQ(Receiver.receiveIntoProgram(Into.data(), Page), -1);
  close(Fds[1]);
}

} // namespace
