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
// Loops that could run long without reaching a point get one on their back
// edge, taken every so many iterations (LoopPoints.h): a request is taken
// within about LoopStretchBudget instructions, with no flag.  With
// -popcorn-loop-period=N (popcorn-clang -fpopcorn-loop-period=N) every loop
// gets one instead, tested once every N back edges the invocation takes (in
// any of its loops); with N = 0, none does.
//
// Runs after inlining: a migration point inlined into a caller would be
// there twice.
//
//===----------------------------------------------------------------------===//
#include "InsertMigrationPoints.h"
#include "BoundedFunctions.h"
#include "LibcFunctions.h"
#include "LoopPoints.h"
#include "Migratable.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
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

} // namespace

static cl::opt<unsigned> LoopPeriod(
    "popcorn-loop-period", cl::init(0),
    cl::desc("Test for a pending migration every N iterations of each loop (0: never)"));

// In every loop, off by default until their cost is in budget: with them,
// bench/ runs 1.10x the instructions it runs without (geometric mean), a
// database-style interpreter 1.63x (bench/db.c): a point's call in a loop
// makes the values live across it values carried round the loop, spilled
// and copied when there are many.
static cl::opt<bool> LoopPointsWhereNeeded(
    "popcorn-loop-points", cl::init(false),
    cl::desc("A point in the loops that could run long without one, at a period of the "
             "compiler's (popcorn-clang -fpopcorn-loop-period=auto)"));

// By default, the loops that call the program's leaf functions and nothing
// that reaches a point: such a loop is never left for a point, and its
// calls make a test cheap beside an iteration (bench/ 1.006x; interp's
// dispatch loop, 1.11x, answered no request before).
static cl::opt<bool> LeafCallLoopPoints(
    "popcorn-leaf-call-loop-points", cl::init(true),
    cl::desc("A point in the loops that call the program's leaf functions and reach no "
             "point through any call (the default)"));

// The loop points of F; false if it has none.
static bool addLoopPoints(Function &F, FunctionAnalysisManager &FAM,
                          const LoopPointContext &Ctx) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return false;
  if (LoopPeriod.getNumOccurrences()) {
    if (LoopPeriod)
      countAllBackEdges(F, LI, LoopPeriod, Ctx);
    return LoopPeriod != 0;
  }
  if (!LoopPointsWhereNeeded && !LeafCallLoopPoints)
    return false;
  return insertLoopPoints(F, LI, FAM.getResult<ScalarEvolutionAnalysis>(F),
                          FAM.getResult<DominatorTreeAnalysis>(F), Ctx) != 0;
}

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
  auto HasEntryPoint = [&](const Function &F) { return isMigratable(F) && !Bounded.contains(F); };
  auto InsertPoint = [&](Instruction *Where) { Builder.insertBefore(Where); };
  LoopPointContext Loops{Bounded, HasEntryPoint, InsertPoint, neverCallsBack,
                         /*OnlyLoopsCallingLeaves=*/!LoopPointsWhereNeeded};
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (!isMigratable(F))
      continue;
    if (Bounded.contains(F)) {
      LLVM_DEBUG(dbgs() << "popcorn: no migration point in the bounded " << F.getName()
                        << "\n");
      continue;
    }
    bool LoopPoints = addLoopPoints(F, FAM, Loops);
    // Past the static allocas, which must stay in the entry block.
    BasicBlock::iterator Entry = F.getEntryBlock().getFirstInsertionPt();
    while (isa<AllocaInst>(*Entry))
      ++Entry;
    Builder.insertBefore(&*Entry);
    LLVM_DEBUG(dbgs() << "popcorn: a migration point" << (LoopPoints ? " and loop points" : "")
                      << " in " << F.getName() << "\n");
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
