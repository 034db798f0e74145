//===- RejectNonPortable.h - Reject code that cannot run on every ISA -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_REJECTNONPORTABLE_H
#define POPCORN_PLUGIN_REJECTNONPORTABLE_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// Reports an error, naming file, line and function, for each construct the
/// canonical IR cannot carry to every ISA: inline and file-scope assembly,
/// calls to aarch64-only intrinsics, and va_arg of an aggregate type.
/// Changes nothing.
class RejectNonPortablePass : public llvm::PassInfoMixin<RejectNonPortablePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; } // also at -O0 and on optnone code
};

} // namespace popcorn

#endif
