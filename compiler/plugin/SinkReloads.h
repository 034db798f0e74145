//===- SinkReloads.h - Reads of slots moved to where they are used -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_SINKRELOADS_H
#define POPCORN_PLUGIN_SINKRELOADS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace popcorn {

/// Moves each read of one of F's slots (IsSlot) that RecordCallSites put at
/// the top of the block after a call down to the block where its uses
/// meet, when no recorded call, no write of the slot and no loop lies
/// between: a value read back after a call but used on one branch only (a
/// virtual call's arguments on the rare path of a loop) is then read on
/// that branch only.  Returns the number of reads moved.
unsigned sinkReloads(llvm::Function &F, llvm::function_ref<bool(const llvm::Value *)> IsSlot);

} // namespace popcorn

#endif
