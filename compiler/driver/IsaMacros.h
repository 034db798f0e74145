//===- IsaMacros.h - The macros that would tell code its ISA ----*- C++ -*-===//
//
// A multi-ISA program is compiled once, for every ISA, so the preprocessor
// must see none: code that chooses SIMD, assembly or a layout by
// __aarch64__, __ARM_NEON or __SSE2__ then takes the portable path that
// every ISA can run.  The front end targets aarch64, so the driver
// undefines aarch64's macros (and x86-64's, which it never sees, so that
// the list is one rule).  The list is derived when popcorn is built, by
// isa-macros.sh, which also says which macros stay and why.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_DRIVER_ISAMACROS_H
#define POPCORN_DRIVER_ISAMACROS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace popcorn {

/// The macros clang predefines for one ISA and popcorn-clang undefines.
llvm::ArrayRef<const char *> isaMacros();

/// Whether code that tests Name chooses by ISA: one of isaMacros(), or a
/// feature macro of an ISA family that the options popcorn-clang refuses
/// (-march=, -msse4.2, ...) would define.
bool namesIsa(llvm::StringRef Name);

} // namespace popcorn

#endif
