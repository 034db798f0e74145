//===- InsertMigrationPoints.cpp - Places where a thread may leave --------===//
//
// Popcorn's default placement: function entry and every return.  The fast
// path costs one load and one predictable branch; the call on the slow path
// gets a call-site record like every other call (RecordCallSites.cpp), so the
// stack can be rewritten there.
//
// The slow path is a preserve_all call: the runtime saves every register it
// touches, so the fast path needs no register saved around it, and a leaf
// function's frame set-up moves into the cold block (shrink-wrapping).  The
// runtime sees the caller's registers as they were at the call.
//
// A function that calls nothing gets the entry point only: its return is a
// bounded number of instructions later, and the caller's next point follows.
// A second test would cost as much as the small functions' bodies.
//
// Runs after inlining: a migration point inlined into a caller would be
// there twice.
//
//===----------------------------------------------------------------------===//
#include "InsertMigrationPoints.h"
#include "Migratable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
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
    // Volatile: never merged with another test nor hoisted out of a loop,
    // and a racing store gives the hardware's answer (LangRef), while x86-64
    // still folds it into one cmp with memory (an atomic load it does not).
    LoadInst *Word = B.CreateLoad(B.getInt32Ty(), Pending, /*isVolatile=*/true,
                                  "popcorn.pending");
    Word->setAlignment(Align(4));
    Value *IsPending = B.CreateICmpNE(Word, B.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(IsPending, Where, false, Unlikely);
    IRBuilder<> S(Then);
    CallInst *Call = S.CreateCall(SlowPath);
    Call->setCallingConv(CallingConv::PreserveAll);
    Call->setDebugLoc(Where->getDebugLoc());
  }
};

// Calls that stay calls in the machine code; intrinsics mostly do not.
static bool callsAnything(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(Call) || isa<MemIntrinsic>(Call))
          return true;
  return false;
}
} // namespace

PreservedAnalyses InsertMigrationPointsPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  // Both live in the same statically linked image as the program: direct
  // references, no GOT.
  auto *Pending = cast<GlobalVariable>(
      M.getOrInsertGlobal(PendingWordName, Type::getInt32Ty(Ctx)));
  Pending->setDSOLocal(true);
  FunctionCallee SlowPath =
      M.getOrInsertFunction(MigrationPointName, FunctionType::get(Type::getVoidTy(Ctx), false));
  auto *SlowPathFn = cast<Function>(SlowPath.getCallee());
  SlowPathFn->setDSOLocal(true);
  SlowPathFn->setCallingConv(CallingConv::PreserveAll);
  MigrationPointBuilder Builder{Pending, SlowPath,
                                MDBuilder(Ctx).createBranchWeights(1, 1u << 20)};

  bool Changed = false;
  for (Function &F : M) {
    if (!isMigratable(F))
      continue;
    SmallVector<Instruction *, 4> Returns;
    if (callsAnything(F))
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
