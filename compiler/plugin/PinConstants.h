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
///
/// The new names derive from the module's source file: its whole path for the
/// program (one IR for all ISAs), its file name alone for libc (compiled per
/// ISA from per-ISA source trees, so only the file name is the same).
class PinConstantsPass : public llvm::PassInfoMixin<PinConstantsPass> {
public:
  enum class Naming { SourcePath, FileName };
  explicit PinConstantsPass(Naming N = Naming::SourcePath) : ModuleNaming(N) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Naming ModuleNaming;
};

} // namespace popcorn

#endif
