//===- LowerBlockAddresses.cpp - Labels as values, the same on every ISA --===//
//
// Runs first after the middle end, so the optimizer still sees (and tail
// duplicates) the computed gotos as written; the back ends see only numbers
// and switches.
//
//===----------------------------------------------------------------------===//
#include "LowerBlockAddresses.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-lower-block-addresses"

using namespace llvm;

namespace popcorn {

// The number each address-taken block of F stands for, in block order.
static DenseMap<BasicBlock *, uint64_t> numberLabels(Function &F) {
  DenseMap<BasicBlock *, uint64_t> Numbers;
  for (BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      Numbers[&BB] = Numbers.size() + 1; // 0 stays a null pointer
  return Numbers;
}

static void replaceBlockAddresses(Function &F, const DenseMap<BasicBlock *, uint64_t> &Numbers) {
  Type *I64 = Type::getInt64Ty(F.getContext());
  for (auto [BB, Number] : Numbers) {
    BlockAddress *Address = BlockAddress::get(&F, BB);
    Constant *Label = ConstantExpr::getIntToPtr(ConstantInt::get(I64, Number), Address->getType());
    Address->replaceAllUsesWith(Label);
    Address->destroyConstant();
  }
}

// `indirectbr %p, [A, B, ...]` becomes `switch (ptrtoint %p)` with one case
// per destination; any other number is undefined behaviour, as jumping to a
// label of another function is.
static void replaceComputedGoto(IndirectBrInst *Goto,
                                const DenseMap<BasicBlock *, uint64_t> &Numbers) {
  BasicBlock *From = Goto->getParent();
  Function *F = From->getParent();
  BasicBlock *Invalid = BasicBlock::Create(F->getContext(), "invalid.label", F);
  new UnreachableInst(F->getContext(), Invalid);

  IRBuilder<> B(Goto);
  Value *Number = B.CreatePtrToInt(Goto->getAddress(), B.getInt64Ty());
  SwitchInst *Switch = B.CreateSwitch(Number, Invalid, Goto->getNumDestinations());
  SmallPtrSet<BasicBlock *, 16> Seen;
  for (BasicBlock *To : Goto->successors()) {
    auto It = Numbers.find(To);
    if (Seen.insert(To).second && It != Numbers.end())
      Switch->addCase(B.getInt64(It->second), To);
    else
      To->removePredecessor(From, /*KeepOneInputPHIs=*/true);
  }
  Goto->eraseFromParent();
}

PreservedAnalyses LowerBlockAddressesPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    DenseMap<BasicBlock *, uint64_t> Numbers = numberLabels(F);
    SmallVector<IndirectBrInst *, 4> Gotos;
    for (BasicBlock &BB : F)
      if (auto *Goto = dyn_cast<IndirectBrInst>(BB.getTerminator()))
        Gotos.push_back(Goto);
    if (Numbers.empty() && Gotos.empty())
      continue;
    LLVM_DEBUG(dbgs() << F.getName() << ": " << Numbers.size() << " labels, " << Gotos.size()
                      << " computed gotos\n");
    replaceBlockAddresses(F, Numbers);
    for (IndirectBrInst *Goto : Gotos)
      replaceComputedGoto(Goto, Numbers);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
