//===- popcorn-clang.cpp - The multi-ISA C compiler driver ----------------===//
//
// A drop-in C compiler (CC=popcorn-clang) whose objects and executables hold
// code for every ISA popcorn supports.
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"
#include "Driver.h"
#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  std::vector<std::string> Args(argv + 1, argv + argc);
  return popcorn::runDriver(popcorn::parseCommandLine(Args),
                            popcorn::Toolchain::locate(argv[0]));
}
