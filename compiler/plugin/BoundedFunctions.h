//===- BoundedFunctions.h - Functions no migration can happen in -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_BOUNDEDFUNCTIONS_H
#define POPCORN_PLUGIN_BOUNDEDFUNCTIONS_H

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class CallBase;
class Function;
class Module;
} // namespace llvm

namespace popcorn {

/// The functions of a module that finish in a bounded number of
/// instructions and never reach a migration point: no cycle in their
/// control flow, and every call they make is to an intrinsic or to another
/// bounded function, directly or through a constant table of them (an
/// interpreter's handlers).  Such a function needs no migration point: a
/// pending request is taken at its caller's next one.  A call to it needs no
/// record: no thread can be moved while the callee runs, so its caller's
/// frame is never rewritten at that call.
///
/// Only exact definitions count (a weak one may be replaced at link time),
/// and recursion does not (its depth is the input's).
class BoundedFunctions {
public:
  explicit BoundedFunctions(const llvm::Module &M);
  bool contains(const llvm::Function &F) const;
  /// Every function Call may reach is bounded.
  bool callIsBounded(const llvm::CallBase &Call) const;

private:
  enum class State : uint8_t { Visiting, Bounded, Unbounded };
  bool visit(const llvm::Function &F) const;
  mutable llvm::DenseMap<const llvm::Function *, State> States;
};

} // namespace popcorn

#endif
