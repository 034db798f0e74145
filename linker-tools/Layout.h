//===- Layout.h - One address-space layout for every ISA -------*- C++ -*-===//
#ifndef POPCORN_LINKERTOOLS_LAYOUT_H
#define POPCORN_LINKERTOOLS_LAYOUT_H

#include "LinkMap.h"
#include <cstdint>
#include <string>
#include <vector>

namespace popcorn {

// An input section at a fixed address.
struct Placement {
  std::string File;    // as in MappedSection: "in3.o", "libc.a(vfprintf.lo)"
  std::string Section; // ".text.printf_core"
  uint64_t Address;
};

// An output section at a fixed address, its input sections at theirs.
struct PlacedOutputSection {
  std::string Name;
  uint64_t Address;
  std::vector<Placement> Inputs;
  uint64_t ReservedSize = 0; // an output section of this many bytes, no inputs
};

// One ISA's share of the layout: the shared regions (code, read-only data,
// data, bss) at the same addresses as every other ISA's, and where this
// ISA's private sections (merged constants, .eh_frame, .got, .init) start.
struct IsaLayout {
  std::vector<PlacedOutputSection> Shared;
  uint64_t PrivateStart = 0;
  uint64_t PrivateEnd = 0;
  // The host ISA's only: where the other ISAs' executables go, loaded
  // (MultiIsaFile.h), above every ISA's private range.
  uint64_t ImagesStart = 0;
};

/// Computes one layout from each ISA's first link (Maps[i] is AllIsas[i]'s
/// map).  Input sections are matched across ISAs by (file or archive member,
/// section name); each matched pair gets one address and the larger size and
/// alignment.  A section only one ISA has still gets its own address range,
/// left as padding in the other ISAs.
///
/// MetadataSize bytes are reserved for the migration metadata at the end of
/// the shared read-only region (section .popcorn.metadata, symbols
/// __popcorn_metadata and __popcorn_metadata_end).
std::vector<IsaLayout> computeLayout(const std::vector<std::vector<MappedSection>> &Maps,
                                     uint64_t MetadataSize);

/// The lld linker script that makes an ISA's second link follow Layout.
std::string writeLinkerScript(const IsaLayout &Layout);

} // namespace popcorn

#endif
