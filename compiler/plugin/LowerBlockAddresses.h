//===- LowerBlockAddresses.h - Labels as values, the same on every ISA -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_LOWERBLOCKADDRESSES_H
#define POPCORN_PLUGIN_LOWERBLOCKADDRESSES_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// Replaces every label address (`&&label`, a blockaddress) with the label's
/// number in its function (1, 2, ...), and every computed goto (indirectbr)
/// with a switch on that number.
///
/// Why: a label's code address differs between ISAs (only functions, not
/// the blocks inside them, are laid out at one address), yet an
/// interpreter's dispatch table lives in data that is the same on every ISA,
/// and a label address may be live across a migration point.  A number
/// means the same on every ISA.  Arithmetic on label addresses that the
/// program does (`&&op - &&base` tables) stays correct: it is linear in the
/// numbers.  The back end turns the switch into a jump table, one load more
/// than a direct computed goto.
class LowerBlockAddressesPass : public llvm::PassInfoMixin<LowerBlockAddressesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace popcorn

#endif
