//===- InflateTest.cpp - The runtime's zlib decoder against zlib ----------===//
//
// Streams come from zlib itself (through LLVM), at every level: stored,
// fixed-code and dynamic-code blocks, long matches and overlapping copies.
// The decoder must give back the input exactly, and refuse every truncated
// or damaged stream and every wrong size without writing past its buffer.
//
//===----------------------------------------------------------------------===//
#include "state/Inflate.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <random>

using namespace llvm;
using popcorn::inflateZlib;

namespace {

std::vector<uint8_t> zlibOf(ArrayRef<uint8_t> Data, int Level) {
  SmallVector<uint8_t, 0> Stream;
  compression::zlib::compress(Data, Stream, Level);
  return std::vector<uint8_t>(Stream.begin(), Stream.end());
}

// Bytes that exercise the coder: text, runs, random noise, and this test's
// own executable (machine code, like the images the runtime inflates).
std::vector<std::vector<uint8_t>> samples() {
  std::vector<std::vector<uint8_t>> All;
  All.push_back({});
  All.push_back({'a'});
  std::string Text;
  for (int I = 0; I < 3000; I++)
    Text += "line " + std::to_string(I * 7919 % 1000) + " of popcorn's images\n";
  All.emplace_back(Text.begin(), Text.end());
  All.emplace_back(100000, uint8_t(0)); // matches of 258 bytes at distance 1
  std::mt19937 Random(42);
  std::vector<uint8_t> Noise(70000);
  for (uint8_t &B : Noise)
    B = uint8_t(Random());
  All.push_back(Noise);
  if (auto Self = MemoryBuffer::getFile("/proc/self/exe")) {
    StringRef Bytes = (*Self)->getBuffer().take_front(1 << 20);
    All.emplace_back(Bytes.begin(), Bytes.end());
  }
  return All;
}

TEST(InflateTest, GivesBackWhatZlibCompressed) {
  ASSERT_TRUE(compression::zlib::isAvailable());
  for (const std::vector<uint8_t> &Data : samples())
    for (int Level : {0, 1, 6, 9}) {
      std::vector<uint8_t> Stream = zlibOf(Data, Level);
      std::vector<uint8_t> Out(Data.size() + 1, 0xee);
      EXPECT_TRUE(inflateZlib(Stream.data(), Stream.size(), Out.data(), Data.size()))
          << Data.size() << " bytes at level " << Level;
      EXPECT_TRUE(std::equal(Data.begin(), Data.end(), Out.begin()))
          << Data.size() << " bytes at level " << Level;
      EXPECT_EQ(Out.back(), 0xee);
    }
}

TEST(InflateTest, RefusesAWrongSize) {
  for (const std::vector<uint8_t> &Data : samples()) {
    std::vector<uint8_t> Stream = zlibOf(Data, 9);
    std::vector<uint8_t> Out(Data.size() + 2, 0xee);
    EXPECT_FALSE(inflateZlib(Stream.data(), Stream.size(), Out.data(), Data.size() + 1));
    if (!Data.empty()) {
      // The call above filled Out: the byte just past a short buffer must
      // be seen unwritten, so it is marked again.
      std::fill(Out.begin(), Out.end(), 0xee);
      EXPECT_FALSE(inflateZlib(Stream.data(), Stream.size(), Out.data(), Data.size() - 1));
      EXPECT_EQ(Out[Data.size() - 1], 0xee) << "wrote past the end of a short buffer";
    }
  }
}

// Every prefix of a stream is refused.  A stream with any one byte changed
// is refused or, if the change fell in the bits that pad the last block to
// a byte (which the format ignores), still gives exactly the input: never
// different bytes.  The checksum catches what the structure does not.
TEST(InflateTest, RefusesTruncatedAndDamagedStreams) {
  std::string Text;
  for (int I = 0; I < 200; I++)
    Text += "damaged " + std::to_string(I % 13) + "\n";
  std::vector<uint8_t> Data(Text.begin(), Text.end());
  for (int Level : {0, 1, 9}) {
    std::vector<uint8_t> Stream = zlibOf(Data, Level);
    std::vector<uint8_t> Out(Data.size() + 1, 0xee);
    for (size_t Length = 0; Length < Stream.size(); Length++) {
      // A copy of exactly Length bytes, so reading past it is caught by
      // sanitizers and debuggers, not only by the result.
      std::vector<uint8_t> Prefix(Stream.begin(), Stream.begin() + Length);
      EXPECT_FALSE(inflateZlib(Prefix.data(), Prefix.size(), Out.data(), Data.size()))
          << "prefix of " << Length << " bytes at level " << Level;
    }
    unsigned Refused = 0, Tried = 0;
    for (size_t At = 0; At < Stream.size(); At++)
      for (uint8_t Flip : {0x01, 0x80, 0xff}) {
        std::vector<uint8_t> Damaged = Stream;
        Damaged[At] ^= Flip;
        bool Accepted = inflateZlib(Damaged.data(), Damaged.size(), Out.data(), Data.size());
        EXPECT_TRUE(!Accepted || std::equal(Data.begin(), Data.end(), Out.begin()))
            << "byte " << At << " ^ " << int(Flip) << " at level " << Level;
        Refused += !Accepted;
        Tried++;
        EXPECT_EQ(Out.back(), 0xee);
      }
    // Only the last block's padding, a few bits, may change unnoticed.
    EXPECT_GE(Refused + 3, Tried) << "level " << Level;
  }
}

} // namespace
