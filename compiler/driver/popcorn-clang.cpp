//===- popcorn-clang.cpp - The multi-ISA C and C++ compiler driver --------===//
//
// A drop-in C and C++ compiler (CC=popcorn-clang, CXX=popcorn-clang++) whose
// objects and executables hold code for every ISA popcorn supports.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"
#include "Driver.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

// The arguments with every @FILE replaced by the arguments FILE holds, as
// gcc and clang read them (build systems write long command lines to
// response files), so that each one is checked like any other.
static std::vector<std::string> expandResponseFiles(int Argc, char **Argv) {
  BumpPtrAllocator Alloc;
  SmallVector<const char *, 64> Args(Argv + 1, Argv + Argc);
  if (Error E = cl::ExpansionContext(Alloc, cl::TokenizeGNUCommandLine).expandResponseFiles(Args)) {
    WithColor::error(errs(), "popcorn-clang") << toString(std::move(E)) << "\n";
    exit(1);
  }
  return std::vector<std::string>(Args.begin(), Args.end());
}

// popcorn-clang++ is popcorn-clang under another name, as clang++ is clang.
static popcorn::DriverMode modeOf(StringRef Argv0) {
  return sys::path::filename(Argv0).ends_with("++") ? popcorn::DriverMode::Cxx
                                                    : popcorn::DriverMode::C;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  return popcorn::runDriver(
      popcorn::parseCommandLine(expandResponseFiles(argc, argv), modeOf(argv[0])),
      popcorn::Toolchain::locate(argv[0]));
}
