//===- IsaMacros.cpp - The macros that would tell code its ISA ------------===//
#include "IsaMacros.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace popcorn {

static const char *const IsaMacroNames[] = {
#include "popcorn/IsaMacros.inc"
};

// Families whose members come with ISA options: __SSE4_2__, __AVX2__,
// __ARM_FEATURE_SVE, ...; and the 32-bit ISAs' names, which code that
// lists ISAs tests alongside the 64-bit ones.
static const char *const IsaFamilyPrefixes[] = {"__SSE", "__AVX", "__ARM_", "__arm",
                                                "__i386", "__i686", "_M_X64", "_M_AMD64",
                                                "_M_ARM", "_M_IX86"};

ArrayRef<const char *> isaMacros() { return IsaMacroNames; }

bool namesIsa(StringRef Name) {
  return any_of(IsaMacroNames, [&](const char *Macro) { return Name == Macro; }) ||
         any_of(IsaFamilyPrefixes, [&](const char *Prefix) { return Name.starts_with(Prefix); });
}

} // namespace popcorn
