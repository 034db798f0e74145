//===- ObjectStack.h - Stack objects on the per-thread object stack -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_OBJECTSTACK_H
#define POPCORN_PLUGIN_OBJECTSTACK_H

#include "llvm/IR/PassManager.h"
#include <functional>

namespace popcorn {

/// The native stacks' alignment on every ISA.  What stays on the native
/// stack is aligned to no more: a frame with a more aligned object is
/// realigned at run time, and a rewrite cannot lay out such a frame.
inline constexpr uint64_t NativeStackAlign = 16;

/// Moves the stack objects (allocas) of the selected functions to the
/// thread's object stack: one frame per invocation, laid out here in the
/// shared IR, so a local has the same address on every ISA and keeps it when
/// the thread's native stack is rewritten for another ISA (docs/architecture.md).
/// The native stack then holds only what a back end creates.
class ObjectStackPass : public llvm::PassInfoMixin<ObjectStackPass> {
public:
  /// Selected: the functions whose frames may be rewritten.  LowerSlots:
  /// the module is already for its final ISA (libc, compiled per ISA), so
  /// the thread-pointer slot is lowered at once, not by popcorn-llc.
  /// KeepPrivateObjects: small objects whose address never leaves their
  /// function's loads and stores stay on the native stack, and call-site
  /// records carry their bytes.  Only where one module serves every ISA
  /// (the program): compiled per ISA, the ISAs could disagree on which.
  ObjectStackPass(std::function<bool(const llvm::Function &)> Selected, bool LowerSlots,
                  bool KeepPrivateObjects = false)
      : Selected(std::move(Selected)), LowerSlots(LowerSlots),
        KeepPrivateObjects(KeepPrivateObjects) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::function<bool(const llvm::Function &)> Selected;
  bool LowerSlots;
  bool KeepPrivateObjects;
};

} // namespace popcorn

#endif
