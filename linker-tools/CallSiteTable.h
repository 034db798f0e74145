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

/// Reads the call sites of one ISA's image of a multi-ISA executable back
/// from its .popcorn.metadata, what the runtime reads (the stack maps are
/// not in the final executable).  Function names come from the symbol table
/// if there is one.  Errors name the file and what is malformed.
llvm::Expected<CallSiteTable> readMetadataCallSites(llvm::MemoryBufferRef Executable);

/// The bytes of Executable's .popcorn.metadata (its reserved size), or an error.
llvm::Expected<llvm::StringRef> metadataSection(llvm::MemoryBufferRef Executable);

/// Every ID must exist on every ISA, with the same number, kinds and sizes
/// of values.  The error names each offending function.  libc's sites that
/// differ are not errors; they lose POPCORN_SITE_COMPLETE instead.
llvm::Error verifyCallSites(llvm::MutableArrayRef<CallSiteTable> Tables);

} // namespace popcorn

#endif
