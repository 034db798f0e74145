//===- FrontendDiagnosticsTest.cpp - the note after an ISA's #error -------===//
//
// popcorn-clang defines no ISA's macros; an #error reached because of it
// gets a note, and no other #error does.
//
//===----------------------------------------------------------------------===//
#include "FrontendDiagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace popcorn;

namespace {

// A source file on disk (the rewrite reads the lines around an #error),
// and clang's diagnostic for its #error at ErrorLine.
class IsaErrorNote : public ::testing::Test {
protected:
  void TearDown() override { sys::fs::remove(Path); }

  std::string rewrite(StringRef Source, unsigned ErrorLine) {
    int FD;
    EXPECT_FALSE(sys::fs::createTemporaryFile("isa-error", "c", FD, Path));
    {
      raw_fd_ostream Out(FD, /*shouldClose=*/true);
      Out << Source;
    }
    std::string Where = (Twine(Path) + ":" + Twine(ErrorLine)).str();
    return rewriteFrontendDiagnostics(Where + ":2: error: \"no ISA\"\n" +
                                      "    3 | #error \"no ISA\"\n" +
                                      "      |  ^\n" + "1 error generated.\n");
  }

  SmallString<128> Path;
};

} // namespace

TEST_F(IsaErrorNote, FollowsTheExcerptOfAnErrorInAnIsaChain) {
  std::string Out = rewrite("#if defined(__x86_64__)\n"
                            "#elif defined __aarch64__\n"
                            "#else\n"
                            "#error \"no ISA\"\n"
                            "#endif\n",
                            4);
  size_t Note = Out.find(": note: popcorn-clang defines no ISA's macros, so __x86_64__ "
                         "(tested at line 1)");
  ASSERT_NE(Note, std::string::npos) << Out;
  EXPECT_GT(Note, Out.find("      |  ^\n")) << Out;
  EXPECT_LT(Note, Out.find("1 error generated.")) << Out;
}

TEST_F(IsaErrorNote, NamesAFeatureTestedInAnElif) {
  std::string Out = rewrite("#if BLOCK > 64\n"
                            "#elif !defined(__AVX2__)\n"
                            "# error \"no ISA\"\n"
                            "#endif\n",
                            3);
  EXPECT_NE(Out.find("so __AVX2__ (tested at line 2)"), std::string::npos) << Out;
}

TEST_F(IsaErrorNote, NotForAnErrorOutsideIsaTests) {
  std::string Out = rewrite("#if defined(__x86_64__)\n"
                            "#define FAST 1\n"
                            "#endif\n"
                            "#if __STDC_VERSION__ < 199901L\n"
                            "#error \"no ISA\"\n"
                            "#endif\n",
                            5);
  EXPECT_EQ(Out.find("note:"), std::string::npos) << Out;
}

TEST_F(IsaErrorNote, NotForALineThatIsNoErrorDirective) {
  std::string Out = rewrite("#ifndef __aarch64__\n"
                            "int f(void) { return g(); }\n"
                            "#endif\n",
                            2);
  EXPECT_EQ(Out.find("note:"), std::string::npos) << Out;
}
