//===- PinConstants.h - Give every constant one address on every ISA -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_PINCONSTANTS_H
#define POPCORN_PLUGIN_PINCONSTANTS_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// Makes every constant global (string literals included) an ordinary,
/// named, address-significant object: drops unnamed_addr, and turns private
/// globals into internal ones named after the module.
///
/// Why: a constant with unnamed_addr goes to a mergeable section, and each
/// ISA's linker merges and places such sections on its own, so a pointer to
/// "hello" would mean different bytes on different ISAs.  Named objects in
/// their own sections are laid out once for all ISAs by popcorn-ld, and
/// their names let popcorn-inspect verify that they were.
class PinConstantsPass : public llvm::PassInfoMixin<PinConstantsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace popcorn

#endif
