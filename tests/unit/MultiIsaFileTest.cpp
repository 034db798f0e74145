//===- MultiIsaFileTest.cpp - Embedding and finding per-ISA images --------===//
//
// Builds real relocatable objects for both ISAs with clang-19, embeds one in
// the other and checks what comes back, and that damaged files are refused
// with a message instead of a crash.
//
//===----------------------------------------------------------------------===//
#include "popcorn/MultiIsaFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace popcorn;

namespace {

class MultiIsaFileTest : public ::testing::Test {
protected:
  static std::unique_ptr<MemoryBuffer> compile(const IsaInfo &Isa) {
    SmallString<128> Source, Object;
    sys::fs::createTemporaryFile("popcorn-unit", "c", Source);
    sys::fs::createTemporaryFile("popcorn-unit", "o", Object);
    {
      std::error_code EC;
      raw_fd_ostream OS(Source, EC);
      OS << "int answer(void) { return 42; }\n";
    }
    std::string Target = "--target=" + std::string(Isa.Triple);
    std::vector<StringRef> Argv = {POPCORN_TEST_CLANG, Target, "-c", "-x", "c",
                                   Source, "-o", Object};
    EXPECT_EQ(sys::ExecuteAndWait(POPCORN_TEST_CLANG, Argv), 0);
    auto Buffer = MemoryBuffer::getFile(Object);
    sys::fs::remove(Source);
    sys::fs::remove(Object);
    EXPECT_TRUE(bool(Buffer));
    return std::move(*Buffer);
  }

  static void SetUpTestSuite() {
    Host = compile(AllIsas[0]).release();
    Guest = compile(AllIsas[1]).release();
  }
  static void TearDownTestSuite() {
    delete Host;
    delete Guest;
  }

  static MemoryBuffer *Host, *Guest;
};

MemoryBuffer *MultiIsaFileTest::Host;
MemoryBuffer *MultiIsaFileTest::Guest;

} // namespace

TEST_F(MultiIsaFileTest, EmbeddedImageComesBackByteForByte) {
  Expected<std::unique_ptr<MemoryBuffer>> Multi =
      embedIsaImages(Host->getMemBufferRef(), {{Isa::AArch64, Guest->getMemBufferRef()}});
  ASSERT_TRUE(bool(Multi)) << toString(Multi.takeError());

  Expected<Isa> HostOfMulti = elfIsa((*Multi)->getMemBufferRef());
  ASSERT_TRUE(bool(HostOfMulti));
  EXPECT_EQ(*HostOfMulti, Isa::X86_64);

  Expected<std::optional<StringRef>> Image = findIsaImage((*Multi)->getMemBufferRef(), Isa::AArch64);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  ASSERT_TRUE(Image->has_value());
  EXPECT_EQ(**Image, Guest->getBuffer());

  Expected<std::unique_ptr<MemoryBuffer>> Plain = stripIsaImages((*Multi)->getMemBufferRef());
  ASSERT_TRUE(bool(Plain));
  Expected<std::optional<StringRef>> None = findIsaImage((*Plain)->getMemBufferRef(), Isa::AArch64);
  ASSERT_TRUE(bool(None));
  EXPECT_FALSE(None->has_value());
}

TEST_F(MultiIsaFileTest, RefusesAnImageOfTheWrongIsa) {
  Expected<std::unique_ptr<MemoryBuffer>> Multi =
      embedIsaImages(Host->getMemBufferRef(), {{Isa::AArch64, Host->getMemBufferRef()}});
  ASSERT_FALSE(bool(Multi));
  EXPECT_NE(toString(Multi.takeError()).find("is not a aarch64 file"), std::string::npos);
}

TEST_F(MultiIsaFileTest, DamagedFilesGiveErrorsNotCrashes) {
  Expected<std::unique_ptr<MemoryBuffer>> Multi =
      embedIsaImages(Host->getMemBufferRef(), {{Isa::AArch64, Guest->getMemBufferRef()}});
  ASSERT_TRUE(bool(Multi));
  std::string Bytes((*Multi)->getBuffer());

  // Every truncation point: an error or a missing image, never a crash.
  for (size_t Size = 0; Size < Bytes.size(); Size += 97) {
    MemoryBufferRef Truncated(StringRef(Bytes.data(), Size), "truncated");
    Expected<std::optional<StringRef>> Image = findIsaImage(Truncated, Isa::AArch64);
    if (!Image)
      EXPECT_NE(toString(Image.takeError()).find("truncated"), std::string::npos);
  }

  // The embedded image's ELF magic overwritten: named as such.
  Expected<std::optional<StringRef>> Image = findIsaImage((*Multi)->getMemBufferRef(), Isa::AArch64);
  ASSERT_TRUE(bool(Image) && Image->has_value());
  size_t Offset = (*Image)->data() - (*Multi)->getBufferStart();
  Bytes[Offset + 1] = 'X';
  Expected<std::optional<StringRef>> Broken =
      findIsaImage(MemoryBufferRef(Bytes, "broken"), Isa::AArch64);
  ASSERT_FALSE(bool(Broken));
  EXPECT_NE(toString(Broken.takeError()).find("does not hold a valid ELF file"), std::string::npos);
}
