//===- VerifyLayout.h - Do the ISAs of a program share one layout? -*- C++ -*-===//
#ifndef POPCORN_LINKERTOOLS_VERIFYLAYOUT_H
#define POPCORN_LINKERTOOLS_VERIFYLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <string>
#include <vector>

namespace popcorn {

// A function or data object of one ISA's executable.
struct LayoutSymbol {
  std::string Name;
  uint64_t Address = 0;
  uint64_t Size = 0;
  bool IsFunction = false;
  std::string Section;
};

/// The functions and data objects of an executable whose names are unique
/// in it (a static name defined in two files cannot be matched across ISAs),
/// sorted by address.
llvm::Expected<std::vector<LayoutSymbol>> readLayoutSymbols(llvm::MemoryBufferRef Executable);

/// Checks the executables of one program, one per ISA in AllIsas order: each
/// function and data object defined by several ISAs has one address, and each
/// data object in a shared region starts with the same bytes.  An object
/// whose size differs between ISAs comes from per-ISA code (musl's math
/// tables) and only needs its address.  The error names every offender.
llvm::Error verifyLayout(llvm::ArrayRef<llvm::MemoryBufferRef> Executables);

} // namespace popcorn

#endif
