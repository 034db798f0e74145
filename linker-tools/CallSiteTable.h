//===- CallSiteTable.h - The call sites of one ISA's executable -*- C++ -*-===//
#ifndef POPCORN_LINKERTOOLS_CALLSITETABLE_H
#define POPCORN_LINKERTOOLS_CALLSITETABLE_H

#include "popcorn/Isa.h"
#include "popcorn/Metadata.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <string>
#include <vector>

namespace popcorn {

struct CallSite {
  popcorn_call_site Site{};                 // frame and first_value unset
  popcorn_frame Frame{};                    // first_saved unset
  std::string FunctionName;
  std::vector<popcorn_value> Values;
  std::vector<popcorn_saved_register> Saved;
};

// Every recorded call site of one ISA's linked executable, by return address.
struct CallSiteTable {
  Isa Target;
  std::vector<CallSite> Sites;
  std::vector<popcorn_code_range> Bases; // functions that start threads
};

/// Reads the stack-map records (.llvm_stackmaps: one table per object,
/// concatenated) and the unwind rules (.eh_frame) of a linked executable.
/// Errors name the file and what is malformed.
llvm::Expected<CallSiteTable> readCallSites(llvm::MemoryBufferRef Executable);

/// The metadata blob of a program (popcorn/Metadata.h): every ISA's table,
/// or an error if the format cannot hold them.
llvm::Expected<std::vector<uint8_t>> serializeMetadata(llvm::ArrayRef<CallSiteTable> Tables);

/// Numbers the call sites' IDs densely, the same on every ISA: each ID
/// becomes its index among the distinct IDs of all Tables, in order, so
/// sites with one ID on several ISAs still share one, and the metadata
/// compresses (popcorn/Metadata.h).
void renumberSiteIds(llvm::MutableArrayRef<CallSiteTable> Tables);

/// What section .popcorn.metadata holds for Blob (popcorn/Metadata.h: a
/// header and the blob, its sites shuffled, compressed with zlib).
llvm::Expected<std::vector<uint8_t>> packMetadata(llvm::ArrayRef<uint8_t> Blob);

/// The blob of a .popcorn.metadata section's bytes, inflated and its sites
/// put back in order; an error names File and what is damaged.  The one
/// reader of the section's container for the linker tools.
llvm::Expected<std::vector<uint8_t>> unpackMetadata(llvm::StringRef Section, llvm::StringRef File);

/// Reads the call sites of one ISA's image of a multi-ISA executable back
/// from its .popcorn.metadata, what the runtime reads (the stack maps are
/// not in the final executable).  Function names come from the symbol table
/// if there is one.  Errors name the file and what is malformed.
llvm::Expected<CallSiteTable> readMetadataCallSites(llvm::MemoryBufferRef Executable);

/// The bytes of Executable's .popcorn.metadata as stored (packed, its
/// reserved size), or an error.
llvm::Expected<llvm::StringRef> metadataSection(llvm::MemoryBufferRef Executable);

/// Every ID must exist on every ISA, with the same number, kinds and sizes
/// of values.  The error names each offending function.  libc's sites that
/// differ are not errors; they lose POPCORN_SITE_COMPLETE instead.
llvm::Error verifyCallSites(llvm::MutableArrayRef<CallSiteTable> Tables);

} // namespace popcorn

#endif
