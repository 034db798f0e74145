//===- LinkMap.h - The input sections of a link, from lld's map -*- C++ -*-===//
#ifndef POPCORN_LINKERTOOLS_LINKMAP_H
#define POPCORN_LINKERTOOLS_LINKMAP_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace popcorn {

// One input section kept by a link.  File is the input's base name, with the
// archive member for archives ("libc.a(vfprintf.lo)"), or "<internal>" for
// sections the linker synthesized (merged strings, .got, ...).
struct MappedSection {
  std::string OutputSection;
  std::string File;
  std::string Section;
  std::vector<std::string> Symbols; // the symbols at the section's start
  uint64_t Address = 0;
  uint64_t Size = 0;
  uint64_t Align = 1;
};

/// Parses the map lld writes with -Map: every allocated input section, in
/// address order.  Pieces of one input section (.eh_frame+0x14) are reported
/// once, under the section's name.
llvm::Expected<std::vector<MappedSection>> parseLinkMap(llvm::StringRef Text,
                                                        llvm::StringRef MapName);

} // namespace popcorn

#endif
