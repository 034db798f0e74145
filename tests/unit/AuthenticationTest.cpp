//===- AuthenticationTest.cpp - Digests and the link challenge ------------===//
#include "link/Authentication.h"
#include <gtest/gtest.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace popcorn;

namespace {

std::string hex(const uint8_t *Bytes, size_t N) {
  std::string S;
  char Two[3];
  for (size_t I = 0; I < N; I++) {
    snprintf(Two, sizeof Two, "%02x", Bytes[I]);
    S += Two;
  }
  return S;
}

std::string sha256(const std::string &Text) {
  uint8_t Digest[DigestBytes];
  Sha256 H;
  H.update(Text.data(), Text.size());
  H.finish(Digest);
  return hex(Digest, sizeof Digest);
}

// FIPS 180-4 examples: one block, two blocks, and padding that spills
// into an extra block.
TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// RFC 4231 test cases 2 (short key, message in two parts) and 6 (a key
// longer than a block).
TEST(Sha256, Hmac) {
  uint8_t Mac[DigestBytes];
  std::string Message = "what do ya want for nothing?";
  Bytes Parts[2] = {{Message.data(), 10}, {Message.data() + 10, Message.size() - 10}};
  hmacSha256(reinterpret_cast<const uint8_t *>("Jefe"), 4, Parts, 2, Mac);
  EXPECT_EQ(hex(Mac, sizeof Mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  std::string Key(131, '\xaa');
  std::string Long = "Test Using Larger Than Block-Size Key - Hash Key First";
  Bytes One = {Long.data(), Long.size()};
  hmacSha256(reinterpret_cast<const uint8_t *>(Key.data()), Key.size(), &One, 1, Mac);
  EXPECT_EQ(hex(Mac, sizeof Mac),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

struct Outcome {
  AuthResult Home, Node;
};

// Both sides over a socket pair, each with its own key.
Outcome challenge(const LinkKey &HomeKey, const LinkKey &NodeKey) {
  int Pair[2];
  EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Pair), 0);
  BufferedChannel Home, Node;
  Home.Fd = Pair[0], Node.Fd = Pair[1];
  Home.TimeoutMs = Node.TimeoutMs = 2000;
  Outcome O;
  std::thread NodeSide([&] {
    O.Node = authenticateHome(Node, NodeKey);
    // A node that refuses closes the link: home must see that as refusal.
    shutdown(Node.Fd, SHUT_RDWR);
  });
  O.Home = authenticateNode(Home, HomeKey);
  NodeSide.join();
  close(Pair[0]);
  close(Pair[1]);
  return O;
}

TEST(Authentication, SameKeyIsAccepted) {
  LinkKey Key;
  ASSERT_TRUE(randomBytes(Key.Bytes, sizeof Key.Bytes));
  Outcome O = challenge(Key, Key);
  EXPECT_EQ(O.Home, AuthResult::Accepted);
  EXPECT_EQ(O.Node, AuthResult::Accepted);
}

TEST(Authentication, OtherKeyIsRefusedByBothSides) {
  LinkKey A, B;
  ASSERT_TRUE(randomBytes(A.Bytes, sizeof A.Bytes));
  B = A;
  B.Bytes[31] ^= 1; // one bit
  Outcome O = challenge(A, B);
  EXPECT_EQ(O.Node, AuthResult::Refused);
  EXPECT_EQ(O.Home, AuthResult::Refused);
}

TEST(Authentication, SilentPeerTimesOut) {
  int Pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Pair), 0);
  BufferedChannel Home;
  Home.Fd = Pair[0];
  Home.TimeoutMs = 100;
  LinkKey Key = {};
  EXPECT_EQ(authenticateNode(Home, Key), AuthResult::Lost);
  EXPECT_TRUE(Home.TimedOut);
  close(Pair[0]);
  close(Pair[1]);
}

} // namespace
