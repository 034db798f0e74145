//===- SinkReloads.cpp - Reads of slots moved to where they are used ------===//
//
// RecordCallSites reads a value back from its slot at the top of the block
// after a call, whatever path its uses are on.  In a loop whose common path
// makes calls and whose rare path uses more of the values (shapes' loop of
// virtual calls, which calls `grow` one time in eight with two more values),
// every iteration paid for the rare path's reads.  Moved down to the block
// where its uses meet, a read runs only when they may.
//
// A read moves only where that cannot change what it reads or make it run
// more often: down to a block it dominates, in the same loop, past no
// recorded call and no write or lifetime marker of its slot on any path
// between (besides stores, only a rewrite at a recorded call writes a
// slot).  The end of the slot's
// lifetime that followed the read moves with it.
//
//===----------------------------------------------------------------------===//
#include "SinkReloads.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-call-sites"

using namespace llvm;

namespace popcorn {

namespace {
// Whether I leaves Slot's contents as they are.  Nothing but a store and a
// rewrite at a recorded call (one with a record: a "deopt" bundle) writes a
// slot: no pointer to one leaves the function.
bool keepsSlot(const Instruction &I, const Value *Slot) {
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->getPointerOperand() != Slot;
  if (I.isLifetimeStartOrEnd())
    return I.getOperand(1) != Slot;
  const auto *Call = dyn_cast<CallBase>(&I);
  return !Call || !Call->getOperandBundle(LLVMContext::OB_deopt);
}

// The blocks on a path from From to To that passes through neither again.
SmallPtrSet<BasicBlock *, 8> blocksBetween(BasicBlock *From, BasicBlock *To) {
  auto Walk = [&](BasicBlock *Start, bool Forward) {
    SmallPtrSet<BasicBlock *, 8> Seen;
    SmallVector<BasicBlock *, 8> Work = {Start};
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      auto Next = [&](BasicBlock *N) {
        if (N != From && N != To && Seen.insert(N).second)
          Work.push_back(N);
      };
      if (Forward)
        for (BasicBlock *N : successors(BB))
          Next(N);
      else
        for (BasicBlock *N : predecessors(BB))
          Next(N);
    }
    return Seen;
  };
  SmallPtrSet<BasicBlock *, 8> Ahead = Walk(From, true), Behind = Walk(To, false);
  SmallPtrSet<BasicBlock *, 8> Between;
  for (BasicBlock *BB : Ahead)
    if (Behind.count(BB))
      Between.insert(BB);
  return Between;
}
} // namespace

unsigned sinkReloads(Function &F, function_ref<bool(const Value *)> IsSlot) {
  SmallVector<LoadInst *, 32> Reads;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Read = dyn_cast<LoadInst>(&I); Read && !Read->isVolatile() &&
                                                IsSlot(Read->getPointerOperand()))
        Reads.push_back(Read);
  if (Reads.empty())
    return 0;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  unsigned Moved = 0;
  for (LoadInst *Read : Reads) {
    BasicBlock *From = Read->getParent();
    Value *Slot = Read->getPointerOperand();
    BasicBlock *To = nullptr;
    bool Movable = !Read->use_empty();
    for (User *U : Read->users()) {
      auto *I = cast<Instruction>(U);
      if (isa<PHINode>(I) || I->getParent() == From) {
        Movable = false;
        break;
      }
      To = To ? DT.findNearestCommonDominator(To, I->getParent()) : I->getParent();
    }
    if (!Movable || !To || To == From || !DT.dominates(From, To) ||
        LI.getLoopFor(To) != LI.getLoopFor(From))
      continue;
    // The rest of From, and every block between, keep the slot as it is.
    Instruction *LifetimeEnd = nullptr;
    bool Clear = true;
    for (Instruction *I = Read->getNextNode(); I && Clear; I = I->getNextNode()) {
      auto *Marker = dyn_cast<IntrinsicInst>(I);
      if (Marker && Marker->getIntrinsicID() == Intrinsic::lifetime_end && I->getOperand(1) == Slot &&
          !LifetimeEnd) {
        LifetimeEnd = I;
        continue;
      }
      auto *Other = dyn_cast<LoadInst>(I);
      Clear = keepsSlot(*I, Slot) && !(LifetimeEnd && Other && Other->getPointerOperand() == Slot);
    }
    for (BasicBlock *BB : blocksBetween(From, To))
      for (Instruction &I : *BB)
        Clear = Clear && keepsSlot(I, Slot);
    if (!Clear)
      continue;
    Read->moveBefore(*To, To->getFirstInsertionPt());
    if (LifetimeEnd)
      LifetimeEnd->moveAfter(Read);
    Moved++;
  }
  LLVM_DEBUG(dbgs() << "popcorn: " << Moved << " reads of slots moved down in " << F.getName()
                    << "\n");
  return Moved;
}

} // namespace popcorn
