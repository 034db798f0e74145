//===- MultiIsaFileTest.cpp - Embedding and finding per-ISA images --------===//
//
// Builds real relocatable objects for both ISAs with clang-19, embeds one in
// the other and checks what comes back, and that damaged files are refused
// with a message instead of a crash.
//
//===----------------------------------------------------------------------===//
#include "popcorn/MultiIsaFile.h"
#include "popcorn/StoredImage.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace popcorn;

namespace {

class MultiIsaFileTest : public ::testing::Test {
protected:
  static std::unique_ptr<MemoryBuffer> compile(const IsaInfo &Isa, StringRef Code) {
    SmallString<128> Source, Object;
    sys::fs::createTemporaryFile("popcorn-unit", "c", Source);
    sys::fs::createTemporaryFile("popcorn-unit", "o", Object);
    {
      std::error_code EC;
      raw_fd_ostream OS(Source, EC);
      OS << Code;
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
    Host = compile(AllIsas[0], Answer).release();
    Guest = compile(AllIsas[1], Answer).release();
  }
  static void TearDownTestSuite() {
    delete Host;
    delete Guest;
  }

  // A section that is the same bytes on every ISA, as the migration
  // metadata is.
  static constexpr const char *Answer =
      "int answer(void) { return 42; }\n"
      "__attribute__((section(\".popcorn.test\"), used))\n"
      "static const char same[4096] = \"the same bytes on every ISA\";\n";

  static MemoryBuffer *Host, *Guest;
};

MemoryBuffer *MultiIsaFileTest::Host;
MemoryBuffer *MultiIsaFileTest::Guest;

} // namespace

TEST_F(MultiIsaFileTest, EmbeddedImageComesBackByteForByte) {
  // Stored whole, and leaving a section that is the same in both to the host.
  const std::vector<std::string> Sharing[] = {{}, {".popcorn.test"}};
  uint64_t Sizes[2];
  for (int I = 0; I < 2; ++I) {
    SCOPED_TRACE(I ? "shared section" : "stored whole");
    Expected<std::unique_ptr<MemoryBuffer>> Multi = embedIsaImages(
        Host->getMemBufferRef(), {{Isa::AArch64, Guest->getMemBufferRef()}}, Sharing[I]);
    ASSERT_TRUE(bool(Multi)) << toString(Multi.takeError());
    Sizes[I] = (*Multi)->getBufferSize();

    Expected<Isa> HostOfMulti = elfIsa((*Multi)->getMemBufferRef());
    ASSERT_TRUE(bool(HostOfMulti));
    EXPECT_EQ(*HostOfMulti, Isa::X86_64);

    Expected<std::unique_ptr<MemoryBuffer>> Image =
        findIsaImage((*Multi)->getMemBufferRef(), Isa::AArch64);
    ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
    ASSERT_TRUE(*Image);
    EXPECT_EQ((*Image)->getBuffer(), Guest->getBuffer());

    // The host alone keeps its own copy of a shared section.
    Expected<std::unique_ptr<MemoryBuffer>> Plain = stripIsaImages((*Multi)->getMemBufferRef());
    ASSERT_TRUE(bool(Plain));
    Expected<std::unique_ptr<MemoryBuffer>> None =
        findIsaImage((*Plain)->getMemBufferRef(), Isa::AArch64);
    ASSERT_TRUE(bool(None));
    EXPECT_FALSE(*None);
    EXPECT_EQ((*Plain)->getBuffer().find(".popcorn.shared."), StringRef::npos);
  }
  // 4,096 bytes less, but for the record and its section header and name.
  EXPECT_LE(Sizes[1] + 3500, Sizes[0]);
}

// Executables store images compressed (storeIsaImage, in the object
// popcorn-ld links into the host): the same image comes back, from fewer
// bytes.
TEST_F(MultiIsaFileTest, CompressedImageComesBackByteForByte) {
  Expected<StoredImage> Stored = storeIsaImage({Isa::AArch64, Guest->getMemBufferRef()}, {});
  ASSERT_TRUE(bool(Stored)) << toString(Stored.takeError());
  EXPECT_TRUE(StringRef(Stored->Bytes).starts_with(POPCORN_STORED_IMAGE_MAGIC));
  EXPECT_LT(Stored->Bytes.size(), Guest->getBufferSize());
  Expected<std::unique_ptr<MemoryBuffer>> Object = storedImageObject(*Stored);
  ASSERT_TRUE(bool(Object)) << toString(Object.takeError());
  Expected<std::unique_ptr<MemoryBuffer>> Image =
      findIsaImage((*Object)->getMemBufferRef(), Isa::AArch64);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  ASSERT_TRUE(*Image);
  EXPECT_EQ((*Image)->getBuffer(), Guest->getBuffer());
}

// A damaged stream or header is named, never inflated into a wrong image.
TEST_F(MultiIsaFileTest, DamagedCompressedImageIsNamed) {
  Expected<StoredImage> Stored = storeIsaImage({Isa::AArch64, Guest->getMemBufferRef()}, {});
  ASSERT_TRUE(bool(Stored));
  Expected<std::unique_ptr<MemoryBuffer>> Multi = storedImageObject(*Stored);
  ASSERT_TRUE(bool(Multi));
  std::string Bytes((*Multi)->getBuffer());
  size_t Header = Bytes.find(POPCORN_STORED_IMAGE_MAGIC);
  ASSERT_NE(Header, std::string::npos);
  auto Expect = [&](const char *Says, auto Damage) {
    std::string Damaged = Bytes;
    popcorn_stored_image H;
    memcpy(&H, &Damaged[Header], sizeof H);
    Damage(H, &Damaged[Header + sizeof H]);
    memcpy(&Damaged[Header], &H, sizeof H);
    Expected<std::unique_ptr<MemoryBuffer>> Image =
        findIsaImage(MemoryBufferRef(Damaged, "damaged"), Isa::AArch64);
    ASSERT_FALSE(bool(Image)) << Says;
    std::string Message = toString(Image.takeError());
    EXPECT_NE(Message.find(Says), std::string::npos) << Message;
    EXPECT_NE(Message.find(".popcorn.isa.aarch64"), std::string::npos) << Message;
  };
  Expect("damaged compressed image", [](popcorn_stored_image &, char *Stream) { Stream[40] ^= 0x10; });
  Expect("compressed bytes, but", [](popcorn_stored_image &H, char *) { H.compressed_size++; });
  // Said larger, the image inflates to fewer bytes; said smaller, it
  // does not fit.
  Expect("inflates to", [](popcorn_stored_image &H, char *) { H.stored_size += 4096; });
  Expect("damaged compressed image", [](popcorn_stored_image &H, char *) { H.stored_size--; });
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
    Expected<std::unique_ptr<MemoryBuffer>> Image = findIsaImage(Truncated, Isa::AArch64);
    if (!Image)
      EXPECT_NE(toString(Image.takeError()).find("truncated"), std::string::npos);
  }

  // The embedded image's ELF magic overwritten: named as such.
  Expected<std::unique_ptr<MemoryBuffer>> Image =
      findIsaImage((*Multi)->getMemBufferRef(), Isa::AArch64);
  ASSERT_TRUE(bool(Image) && *Image);
  size_t Offset = (*Image)->getBufferStart() - (*Multi)->getBufferStart();
  Bytes[Offset + 1] = 'X';
  Expected<std::unique_ptr<MemoryBuffer>> Broken =
      findIsaImage(MemoryBufferRef(Bytes, "broken"), Isa::AArch64);
  ASSERT_FALSE(bool(Broken));
  EXPECT_NE(toString(Broken.takeError()).find("does not hold a valid ELF file"), std::string::npos);
}

TEST_F(MultiIsaFileTest, SharedSectionMustBeTheSameBytes) {
  std::unique_ptr<MemoryBuffer> Other = compile(
      AllIsas[1], "__attribute__((section(\".popcorn.test\"), used))\n"
                  "static const char same[4096] = \"other bytes\";\n");
  Expected<std::unique_ptr<MemoryBuffer>> Multi = embedIsaImages(
      Host->getMemBufferRef(), {{Isa::AArch64, Other->getMemBufferRef()}}, {".popcorn.test"});
  ASSERT_FALSE(bool(Multi));
  EXPECT_NE(toString(Multi.takeError()).find("section .popcorn.test differs from the host's"),
            std::string::npos);
}

TEST_F(MultiIsaFileTest, DamagedSharedRecordsGiveErrors) {
  Expected<std::unique_ptr<MemoryBuffer>> Multi = embedIsaImages(
      Host->getMemBufferRef(), {{Isa::AArch64, Guest->getMemBufferRef()}}, {".popcorn.test"});
  ASSERT_TRUE(bool(Multi));
  std::string Bytes((*Multi)->getBuffer());
  // The one record (popcorn/SharedBytes.h): offset, size 4096, host section.
  uint64_t SectionSize = 4096;
  std::string Record(reinterpret_cast<const char *>(&SectionSize), sizeof SectionSize);
  Record += StringRef(".popcorn.test\0", 14);
  size_t Name = Bytes.find(Record);
  ASSERT_NE(Name, std::string::npos);
  Name += sizeof SectionSize;
  std::string Renamed = Bytes;
  Renamed[Name + 10] = 'X'; // .popcorn.tXst: no such host section
  Expected<std::unique_ptr<MemoryBuffer>> Missing =
      findIsaImage(MemoryBufferRef(Renamed, "renamed"), Isa::AArch64);
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(toString(Missing.takeError()).find("which the host does not have"), std::string::npos);

  uint64_t Huge = ~uint64_t(0) / 2;
  memcpy(&Bytes[Name - 16], &Huge, sizeof Huge);
  Expected<std::unique_ptr<MemoryBuffer>> Outside =
      findIsaImage(MemoryBufferRef(Bytes, "outside"), Isa::AArch64);
  ASSERT_FALSE(bool(Outside));
  EXPECT_NE(toString(Outside.takeError()).find("outside the image"), std::string::npos);
}
