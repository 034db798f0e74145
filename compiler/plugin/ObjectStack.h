//===- ObjectStack.h - Stack objects on the per-thread object stack -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_OBJECTSTACK_H
#define POPCORN_PLUGIN_OBJECTSTACK_H

#include "llvm/IR/PassManager.h"
#include <functional>

namespace popcorn {

/// Moves every stack object (alloca) of the selected functions to the
/// thread's object stack: one frame per invocation, laid out here in the
/// shared IR, so a local has the same address on every ISA and keeps it when
/// the thread's native stack is rewritten for another ISA (docs/architecture.md).
/// The native stack then holds only what a back end creates.
class ObjectStackPass : public llvm::PassInfoMixin<ObjectStackPass> {
public:
  /// Selected: the functions whose frames may be rewritten.  LowerSlots:
  /// the module is already for its final ISA (libc, compiled per ISA), so
  /// the thread-pointer slot is lowered at once, not by popcorn-llc.
  ObjectStackPass(std::function<bool(const llvm::Function &)> Selected, bool LowerSlots)
      : Selected(std::move(Selected)), LowerSlots(LowerSlots) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::function<bool(const llvm::Function &)> Selected;
  bool LowerSlots;
};

} // namespace popcorn

#endif
