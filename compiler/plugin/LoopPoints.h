//===- LoopPoints.h - Migration points in loops that may run long -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_LOOPPOINTS_H
#define POPCORN_PLUGIN_LOOPPOINTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>

namespace llvm {
class DominatorTree;
class Function;
class Instruction;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace popcorn {

class BoundedFunctions;

/// What the loop points of a function need from the rest of the pass.
struct LoopPointContext {
  const BoundedFunctions &Bounded;
  /// The function gets a migration point at its entry.
  llvm::function_ref<bool(const llvm::Function &)> HasEntryPoint;
  /// Puts a migration point (the pending test and its slow path) before I.
  llvm::function_ref<void(llvm::Instruction *)> InsertPoint;
  /// A libc function that never calls back into the program (LibcFunctions.h).
  llvm::function_ref<bool(const llvm::Function &)> NeverCallsBack;
  /// Points only in loops that call the program's leaves and reach no point
  /// through any call (the default), not in every loop that could run long.
  bool OnlyLoopsCallingLeaves;
};

/// Gives every loop of F that could run long without reaching a migration
/// point (of those Ctx.OnlyLoopsCallingLeaves allows) one on its back edge,
/// taken once every so many iterations: the
/// period is chosen from an estimate of an iteration's instructions so that
/// about LoopStretchBudget instructions run between two tests.  Returns the
/// number of loops that got one.
unsigned insertLoopPoints(llvm::Function &F, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                          llvm::DominatorTree &DT, const LoopPointContext &Ctx);

/// Every Period-th back edge taken in any loop of F runs a migration point
/// (-popcorn-loop-period=N).
void countAllBackEdges(llvm::Function &F, llvm::LoopInfo &LI, uint32_t Period,
                       const LoopPointContext &Ctx);

/// The instructions a loop point lets run between two tests, estimated on
/// the IR: well under 1 ms of CPU time, even under qemu-user.
inline constexpr uint64_t LoopStretchBudget = 200000;

} // namespace popcorn

#endif
