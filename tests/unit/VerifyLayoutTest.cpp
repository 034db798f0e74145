//===- VerifyLayoutTest.cpp - Cross-ISA layout verification ---------------===//
//
// Links tiny freestanding programs for both ISAs with clang-19 and lld, at
// chosen addresses, and checks that verifyLayout accepts agreeing layouts and
// names every symbol whose address or initial data differ.
//
//===----------------------------------------------------------------------===//
#include "VerifyLayout.h"
#include "popcorn/Isa.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace popcorn;

static std::unique_ptr<MemoryBuffer> link(const IsaInfo &Isa, StringRef Source,
                                          StringRef DataAddress) {
  SmallString<128> Src, Exe;
  sys::fs::createTemporaryFile("popcorn-verify", "c", Src);
  sys::fs::createTemporaryFile("popcorn-verify", "exe", Exe);
  {
    std::error_code EC;
    raw_fd_ostream OS(Src, EC);
    OS << Source;
  }
  std::string Target = "--target=" + std::string(Isa.Triple);
  std::string DataStart = "-Wl,--section-start=.data=" + DataAddress.str();
  std::vector<StringRef> Argv = {POPCORN_TEST_CLANG, Target, "-fuse-ld=lld", "-nostdlib",
                                 "-static", "-O1", "-Wl,-e,main", "-Wl,-Ttext=0x401000",
                                 DataStart, Src, "-o", Exe};
  EXPECT_EQ(sys::ExecuteAndWait(POPCORN_TEST_CLANG, Argv), 0);
  auto Buffer = MemoryBuffer::getFile(Exe);
  sys::fs::remove(Src);
  sys::fs::remove(Exe);
  EXPECT_TRUE(bool(Buffer));
  return std::move(*Buffer);
}

static std::string verify(StringRef HostSource, StringRef HostData, StringRef OtherSource,
                          StringRef OtherData) {
  auto Host = link(AllIsas[0], HostSource, HostData);
  auto Other = link(AllIsas[1], OtherSource, OtherData);
  Error E = verifyLayout({Host->getMemBufferRef(), Other->getMemBufferRef()});
  return E ? toString(std::move(E)) : "";
}

static const char *Program = "int counter = 7;\nint main(void) { return counter; }\n";

TEST(VerifyLayout, AgreeingLayoutsPass) {
  EXPECT_EQ(verify(Program, "0x500000", Program, "0x500000"), "");
}

TEST(VerifyLayout, NamesAnObjectAtAnotherAddress) {
  std::string Report = verify(Program, "0x500000", Program, "0x600000");
  EXPECT_NE(Report.find("object 'counter': x86_64 0x500000, aarch64 0x600000"), std::string::npos)
      << Report;
}

TEST(VerifyLayout, NamesAnObjectWithOtherInitialData) {
  std::string Report = verify(Program, "0x500000",
                              "int counter = 8;\nint main(void) { return counter; }\n",
                              "0x500000");
  EXPECT_NE(Report.find("object 'counter' at 0x500000: initial contents differ"),
            std::string::npos)
      << Report;
}

TEST(VerifyLayout, RefusesAFileThatIsNotElf) {
  auto Host = link(AllIsas[0], Program, "0x500000");
  MemoryBufferRef Garbage("not an ELF file at all", "garbage");
  Error E = verifyLayout({Host->getMemBufferRef(), Garbage});
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("garbage:"), std::string::npos);
}
