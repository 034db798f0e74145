//===- InsertMigrationPoints.cpp - Places where a thread may leave --------===//
//
// Popcorn's default placement: function entry and every return.  The fast
// path costs one load and one predictable branch; the call on the slow path
// gets a call-site record like every other call (RecordCallSites.cpp), so the
// stack can be rewritten there.
//
// Runs after inlining: a migration point inlined into a caller would be
// there twice.
//
//===----------------------------------------------------------------------===//
#include "InsertMigrationPoints.h"
#include "Migratable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "popcorn-migration-points"

using namespace llvm;

namespace popcorn {

namespace {
struct MigrationPointBuilder {
  GlobalVariable *Pending;
  FunctionCallee SlowPath;
  MDNode *Unlikely;

  void insertBefore(Instruction *Where) {
    IRBuilder<> B(Where);
    LoadInst *Word = B.CreateLoad(B.getInt32Ty(), Pending, "popcorn.pending");
    Word->setAtomic(AtomicOrdering::Monotonic);
    Word->setAlignment(Align(4));
    Value *IsPending = B.CreateICmpNE(Word, B.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(IsPending, Where, false, Unlikely);
    IRBuilder<> S(Then);
    CallInst *Call = S.CreateCall(SlowPath);
    Call->setDebugLoc(Where->getDebugLoc());
  }
};
} // namespace

PreservedAnalyses InsertMigrationPointsPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  auto *Pending = cast<GlobalVariable>(
      M.getOrInsertGlobal(PendingWordName, Type::getInt32Ty(Ctx)));
  FunctionCallee SlowPath =
      M.getOrInsertFunction(MigrationPointName, FunctionType::get(Type::getVoidTy(Ctx), false));
  MigrationPointBuilder Builder{Pending, SlowPath,
                                MDBuilder(Ctx).createBranchWeights(1, 1u << 20)};

  bool Changed = false;
  for (Function &F : M) {
    if (!isMigratable(F))
      continue;
    SmallVector<Instruction *, 4> Returns;
    for (BasicBlock &BB : F)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        Returns.push_back(Ret);
    // Entry first: past the static allocas, which must stay in the entry block.
    BasicBlock::iterator Entry = F.getEntryBlock().getFirstInsertionPt();
    while (isa<AllocaInst>(*Entry))
      ++Entry;
    Builder.insertBefore(&*Entry);
    for (Instruction *Ret : Returns)
      Builder.insertBefore(Ret);
    LLVM_DEBUG(dbgs() << "popcorn: " << 1 + Returns.size() << " migration points in "
                      << F.getName() << "\n");
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
