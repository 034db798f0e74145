//===- InsertMigrationPoints.cpp - Places where a thread may leave --------===//
//
// A point at every function entry.  The fast path costs one load and one
// predictable branch; the call on the slow path gets a call-site record like
// every other call (RecordCallSites.cpp), so the stack can be rewritten
// there.
//
// The slow path is a preserve_all call: the runtime saves every register it
// touches, so the fast path needs no register saved around it, and a leaf
// function's frame set-up moves into the cold block (shrink-wrapping).  The
// runtime sees the caller's registers as they were at the call.
//
// None at returns (Popcorn's default has one before each): what runs between
// a return and the next entry is the rest of the callers' bodies, bounded
// but for their loops, which only loop points bound anyway.  A return test
// doubled the cost of a small recursive function's points: recurse ran
// 1.158x stock clang's instructions with them, 1.026x without, and its
// longest stretch between two points grew from 3,189 instructions to 6,147
// (bench/stretch.sh).  A bounded function (BoundedFunctions.h: no cycle,
// and calls only to other bounded functions) gets no point at all: it
// finishes in a bounded number of instructions, and a pending request is
// taken at its caller's next point (in an interpreter's handlers or a qsort
// comparator, the test would cost a third of the function).
//
// With -popcorn-loop-period=N (popcorn-clang -fpopcorn-loop-period=N) every
// loop also gets a point on its back edges, tested once every N back edges
// the invocation takes (in any of its loops): a countdown in a register, so
// a long loop nest without calls is left within N iterations at the cost of
// a decrement and a branch per iteration.
//
// Runs after inlining: a migration point inlined into a caller would be
// there twice.
//
//===----------------------------------------------------------------------===//
#include "InsertMigrationPoints.h"
#include "BoundedFunctions.h"
#include "Migratable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#define DEBUG_TYPE "popcorn-migration-points"

using namespace llvm;

namespace popcorn {

namespace {
struct MigrationPointBuilder {
  GlobalVariable *Pending;
  FunctionCallee SlowPath;
  MDNode *Unlikely;

  // Returns the block the fast and the slow path join in.
  BasicBlock *insertBefore(Instruction *Where) {
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
    return Where->getParent();
  }
};

// Every Period-th back edge the function takes, in any of its loops, the
// migration point runs.  One countdown for the whole invocation, not one per
// loop: an inner loop of fewer than Period iterations, restarted by its outer
// loop, would never reach its test (a Mandelbrot set's escape loop, 15
// million instructions without a test).  The countdown is a local variable
// that mem2reg makes phis of.
static void insertOnBackEdges(Function &F, ArrayRef<BasicBlock *> Latches, unsigned Period,
                              MigrationPointBuilder &Builder) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> E(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Countdown = E.CreateAlloca(E.getInt32Ty(), nullptr, "popcorn.countdown");
  E.CreateStore(E.getInt32(Period), Countdown);
  for (BasicBlock *Latch : Latches) {
    IRBuilder<> B(Latch->getTerminator());
    Value *Left = B.CreateSub(B.CreateLoad(B.getInt32Ty(), Countdown), B.getInt32(1),
                              "popcorn.countdown.next");
    B.CreateStore(Left, Countdown);
    Value *Due = B.CreateICmpEQ(Left, B.getInt32(0));
    Instruction *Test =
        SplitBlockAndInsertIfThen(Due, Latch->getTerminator(), false, Builder.Unlikely);
    Builder.insertBefore(Test);
    new StoreInst(B.getInt32(Period), Countdown, Test->getIterator());
  }
  DominatorTree DT(F);
  PromoteMemToReg({Countdown}, DT);
}
} // namespace

static cl::opt<unsigned> LoopPeriod(
    "popcorn-loop-period", cl::init(0),
    cl::desc("Test for a pending migration every N iterations of each loop (0: never)"));

PreservedAnalyses InsertMigrationPointsPass::run(Module &M, ModuleAnalysisManager &MAM) {
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

  BoundedFunctions Bounded(M);
  bool Changed = false;
  for (Function &F : M) {
    if (!isMigratable(F))
      continue;
    if (Bounded.contains(F)) {
      LLVM_DEBUG(dbgs() << "popcorn: no migration point in the bounded " << F.getName()
                        << "\n");
      continue;
    }
    // The loops' latches, found before any block is split.
    SmallSetVector<BasicBlock *, 4> Latches;
    if (LoopPeriod) {
      auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
      for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder()) {
        SmallVector<BasicBlock *, 2> OfLoop;
        L->getLoopLatches(OfLoop);
        Latches.insert(OfLoop.begin(), OfLoop.end());
      }
    }
    if (!Latches.empty())
      insertOnBackEdges(F, Latches.getArrayRef(), LoopPeriod, Builder);
    // Past the static allocas, which must stay in the entry block.
    BasicBlock::iterator Entry = F.getEntryBlock().getFirstInsertionPt();
    while (isa<AllocaInst>(*Entry))
      ++Entry;
    Builder.insertBefore(&*Entry);
    LLVM_DEBUG(dbgs() << "popcorn: a migration point and " << Latches.size()
                      << " loop latches in " << F.getName() << "\n");
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
