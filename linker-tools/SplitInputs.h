//===- SplitInputs.h - One link's inputs, separated per ISA ----*- C++ -*-===//
#ifndef POPCORN_LINKERTOOLS_SPLITINPUTS_H
#define POPCORN_LINKERTOOLS_SPLITINPUTS_H

#include "popcorn/Isa.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace popcorn {

// A link input as given: a file, or -lNAME.
struct LinkInput {
  std::string Value;
  bool IsLibrary = false; // -lNAME
};

// Per ISA, the files to hand to that ISA's linker, in command-line order.
struct SplitInputs {
  std::vector<std::vector<std::string>> PerIsa; // indexed like AllIsas
  /// Each file written under TempDir and the input it stands for, as the
  /// command line named it: what a linker's message says instead.
  std::vector<std::pair<std::string, std::string>> Given;
};

/// Resolves -lNAME against LibraryDirs and each ISA's sysroot library
/// directory, and extracts every ISA's part of each multi-ISA object and
/// archive into files under TempDir.  Fails, naming the file (and archive
/// member), for an input that lacks an ISA's code or is not a valid file.
llvm::Expected<SplitInputs> splitInputs(const std::vector<LinkInput> &Inputs,
                                        const std::vector<std::string> &LibraryDirs,
                                        const std::string &SysrootDir,
                                        const std::string &TempDir);

} // namespace popcorn

#endif
