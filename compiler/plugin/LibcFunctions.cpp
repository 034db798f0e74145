//===- LibcFunctions.cpp - libc calls that never lead back ----------------===//
//
// musl's global functions come from a list made when musl is built (every
// function libc.a defines); the few whose calls can come back into the
// program are in LibcCallbacks.h, with libc's side of those paths.
//
//===----------------------------------------------------------------------===//
#include "LibcFunctions.h"
#include "LibcCallbacks.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace popcorn {

static cl::opt<std::string> LibcFunctionsFile(
    "popcorn-libc-functions", cl::desc("File listing libc's functions, one a line"),
    cl::value_desc("file"));

static const StringSet<> &libcFunctions() {
  static StringSet<> Names = [] {
    StringSet<> Set;
    if (LibcFunctionsFile.empty())
      return Set;
    ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(LibcFunctionsFile);
    if (!File)
      report_fatal_error("popcorn: cannot read " + Twine(LibcFunctionsFile) + ": " +
                         File.getError().message());
    SmallVector<StringRef, 0> Lines;
    (*File)->getBuffer().split(Lines, '\n', -1, false);
    for (StringRef Name : Lines)
      Set.insert(Name.trim());
    return Set;
  }();
  return Names;
}

// Nothing calls back from these, but their calls keep records: a longjmp
// after a move finds its setjmp's frame by the setjmp call's ID, walking
// the stack from the longjmp call (runtime/migration/LongJump.cpp).
static const char *const LibcFunctionsJumping[] = {
    "setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "longjmp", "_longjmp", "siglongjmp"};

bool neverCallsBack(const Function &F) {
  return F.isDeclaration() && libcFunctions().contains(F.getName()) &&
         !is_contained(LibcFunctionsCallingBack, F.getName()) &&
         !is_contained(LibcFunctionsJumping, F.getName());
}

} // namespace popcorn
