//===- Files.h - Whole-file reads and writes for the linker tools -*- C++ -*-===//
#ifndef POPCORN_LINKERTOOLS_FILES_H
#define POPCORN_LINKERTOOLS_FILES_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>

namespace popcorn {

/// The bytes of a file; the error names it.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> readWholeFile(llvm::StringRef Path);

/// Replaces a file (a new one in its place), optionally making it executable.
llvm::Error writeWholeFile(llvm::StringRef Path, llvm::StringRef Data, bool Executable = false);

} // namespace popcorn

#endif
