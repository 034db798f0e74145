//===- LoopPoints.cpp - Migration points in loops that may run long -------===//
//
// A request to move is taken at the thread's next migration point, so every
// stretch of code between two points must be short: a loop that calls no
// function with an entry point (only leaves, libc, or nothing) would
// otherwise hold a request for as long as it runs.
//
// Which loops: not one whose every iteration calls a function with an entry
// point, nor one of a small constant trip count whose whole run is cheap
// (its cost counts in its parent's iteration instead: an escape loop of at
// most 200 iterations, an inner loop over a 5-element array).  Every other
// loop gets a point taken once every P iterations, P chosen from an
// estimate of an iteration's instructions (the IR's, nested bounded loops
// multiplied out) so that about LoopStretchBudget instructions run between
// two tests.
//
// How, in one of two forms:
//
//  * A counted loop (its latch exits on a compare of an induction variable
//    with a loop-invariant bound) that calls nothing unbounded is
//    strip-mined: its exit test compares with a stop that is the bound, or,
//    if the run is longer than P iterations, the value the variable takes
//    after P.  An iteration costs nothing more (a compare with the stop
//    instead of the bound); a run costs a few instructions on entry, and a
//    chunk's end the test and a new stop.  A test on every iteration would
//    cost a third of a small loop's instructions (a sieve's inner loop:
//    1.59x with -fpopcorn-loop-period).  The chunks are a loop of their own
//    around the original, which sets the stop in its header, so that the
//    inner loop is a counted loop like any other to the back end.
//  * Any other loop tests for a pending request on each back edge, as a
//    function's entry does: a load and a branch, the price of a countdown's
//    decrement and branch, with no register held for it.  The test is on
//    the edge itself, after the latch's exit test, whose result then does
//    not cross the point (RecordCallSites carries what does on the point's
//    path alone): db's interpreter went from 2.6x to 1.7x the instructions
//    of its build without loop points.  An innermost loop with no call and
//    a small body is copied first, each copy keeping its exits, so that one
//    test serves up to 4 iterations.
//
// Nothing is kept from one run of a loop to the next.  A countdown that
// was (so that an inner loop of fewer than P iterations, restarted by its
// outer loop, still reached its test) lived across every enclosing loop:
// in an interpreter, whose dispatch loop holds the inlined loops of its
// handlers, two dozen of them crossed every dispatch, and went to and from
// the stack on each (bench/db.c: 5.86x the instructions of the same build
// without loop points; 2.44x now).  Instead a run of a strip-mined loop
// counts in its parent's iteration as the P iterations it may run
// untested, so its parent gets a point of its own, tested on every
// iteration or nearly.
//
//===----------------------------------------------------------------------===//
#include "LoopPoints.h"
#include "BoundedFunctions.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

#define DEBUG_TYPE "popcorn-migration-points"

using namespace llvm;

namespace popcorn {

namespace {
// A loop of a constant trip count whose whole run costs at most this many
// instructions needs no point of its own.
constexpr uint64_t ShortLoopCost = LoopStretchBudget / 8;
// A call whose callee is not known: libc, another file's function.
constexpr uint64_t UnknownCallCost = 100;
// Keeps a countdown times a step within 32 bits.
constexpr uint64_t MaxPeriod = 1u << 20;
// Fewer iterations than this between two tests: a test on every back edge
// costs less than a chunk's end.
constexpr uint64_t MinChunk = 16;
// A loop tested on its back edge whose body is at most this many
// instructions is copied up to MaxCopies times, to about this size.
constexpr uint64_t UnrolledBodyCost = 24;
constexpr unsigned MaxCopies = 4;

uint64_t instructionCost(const Instruction &I, const BoundedFunctions &Bounded) {
  if (isa<PHINode>(I) || I.isDebugOrPseudoInst() || I.isLifetimeStartOrEnd())
    return 0;
  const auto *Call = dyn_cast<CallBase>(&I);
  if (!Call || (isa<IntrinsicInst>(Call) && !isa<MemIntrinsic>(Call)))
    return 1;
  // A bounded callee has no loop: its length is its cost, but for its own
  // calls, which are short too.
  const Function *Callee = Call->getCalledFunction();
  if (Callee && !Callee->isDeclaration() && Bounded.contains(*Callee))
    return Callee->getInstructionCount();
  return UnknownCallCost;
}

// A direct call in a block that every iteration runs, to a function with an
// entry point.
bool reachesPointEveryIteration(const Loop &L, const DominatorTree &DT,
                                const LoopPointContext &Ctx) {
  SmallVector<BasicBlock *, 2> Latches;
  L.getLoopLatches(Latches);
  for (const BasicBlock *BB : L.blocks()) {
    if (!all_of(Latches, [&](BasicBlock *Latch) { return DT.dominates(BB, Latch); }))
      continue;
    for (const Instruction &I : *BB)
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction())
          if (Ctx.HasEntryPoint(*Callee))
            return true;
  }
  return false;
}

uint32_t periodFor(uint64_t IterationCost) {
  return std::clamp<uint64_t>(LoopStretchBudget / std::max<uint64_t>(IterationCost, 1), 1,
                              MaxPeriod);
}

// A counted loop's exit test, rewritten to compare with a stop.
struct StripMine {
  Loop *L;
  uint32_t Period;
  BasicBlock *Preheader, *Latch, *Header;
  ICmpInst *Exit;
  Value *IV;                     // the induction variable the latch compares
  Value *Bound;                  // loop-invariant
  CmpInst::Predicate Continue;   // IV Continue Bound: take the back edge
  CmpInst::Predicate InChunk;    // IV InChunk Stop: the same, within a chunk
  Value *First;                  // IV's value at the first compare, in the preheader
  Value *Step;                   // in the preheader; positive or negative as Up says
  bool Up;
};

class Planner {
public:
  Planner(LoopInfo &LI, ScalarEvolution &SE, DominatorTree &DT, const LoopPointContext &Ctx)
      : LI(LI), SE(SE), DT(DT), Ctx(Ctx) {}

  // Decides for L and the loops in it; returns what a run of L may cost its
  // parent's iteration without a test: the whole run when L has no point,
  // P iterations when it is strip-mined, one when it tests every back edge.
  uint64_t plan(Loop &L) {
    uint64_t Cost = 0;
    for (BasicBlock *BB : L.blocks())
      if (LI.getLoopFor(BB) == &L)
        for (const Instruction &I : *BB)
          Cost = SaturatingAdd(Cost, instructionCost(I, Ctx.Bounded));
    for (Loop *Inner : L)
      Cost = SaturatingAdd(Cost, plan(*Inner));
    // By default only a loop that calls the program's leaves and reaches no
    // point through any call: a point in a loop that calls nothing, or only
    // libc, costs too much to be a default yet (bench/README.md).
    if (Ctx.OnlyLoopsCallingLeaves && !callsOnlyLeaves(L))
      return Cost;
    if (reachesPointEveryIteration(L, DT, Ctx)) {
      LLVM_DEBUG(dbgs() << "popcorn: loop " << L.getName() << " calls a point\n");
      return Cost;
    }
    if (unsigned Trips = SE.getSmallConstantMaxTripCount(&L)) {
      uint64_t Run = SaturatingMultiply<uint64_t>(Trips, Cost);
      if (Run <= ShortLoopCost) {
        LLVM_DEBUG(dbgs() << "popcorn: loop " << L.getName() << " is short: " << Run << "\n");
        return Run;
      }
    }
    uint32_t Period = periodFor(Cost);
    LLVM_DEBUG(dbgs() << "popcorn: loop " << L.getName() << " costs " << Cost
                      << " per iteration, a point every " << Period << "\n");
    // A loop that makes calls would carry a chunk's stop across each of
    // them, and one whose every few iterations are tested gains nothing
    // from chunks: both test every back edge.
    std::optional<StripMine> S;
    if (Period >= MinChunk && !makesUnboundedCalls(L))
      S = stripMine(L, Period);
    if (S) {
      StripMines.push_back(*S);
      return SaturatingMultiply<uint64_t>(Period, Cost);
    }
    Tested.push_back(&L);
    // A small body is copied so that one test serves several iterations:
    // a test is three instructions, a third of a loop that steps through a
    // string.  The copies keep their exits; only innermost loops with no
    // call, whose copies hold no other loop or call.
    unsigned Copies = unrollCount(L, Cost);
    if (Copies > 1) {
      Unrolled.push_back({&L, Copies});
      return SaturatingMultiply<uint64_t>(Copies, Cost);
    }
    return Cost;
  }

  SmallVector<StripMine, 4> StripMines;
  SmallVector<Loop *, 4> Tested;
  SmallVector<std::pair<Loop *, unsigned>, 4> Unrolled; // of Tested, copies

private:
  // Calls the program's bounded functions (leaves), and nothing that can
  // reach a migration point: its other calls are to libc functions that
  // never call back.  A loop that calls only libc (a string loop's strlen,
  // memcmp) is not one: a test costs up to 13% there (bench/README.md).
  bool callsOnlyLeaves(const Loop &L) const {
    bool Leaves = false;
    for (const BasicBlock *BB : L.blocks())
      for (const Instruction &I : *BB) {
        const auto *Call = dyn_cast<CallBase>(&I);
        if (!Call || isa<IntrinsicInst>(Call))
          continue;
        const Function *Callee = Call->getCalledFunction();
        if (Callee && Callee->isDeclaration()) {
          if (!Ctx.NeverCallsBack(*Callee))
            return false;
        } else if (Ctx.Bounded.callIsBounded(*Call)) {
          Leaves = true;
        } else {
          return false;
        }
      }
    return Leaves;
  }

  unsigned unrollCount(const Loop &L, uint64_t Cost) const {
    if (!L.isInnermost() || Cost > UnrolledBodyCost || SE.getSmallConstantTripCount(&L) ||
        !L.getLoopLatch() || !L.isSafeToClone())
      return 1;
    for (const BasicBlock *BB : L.blocks())
      for (const Instruction &I : *BB)
        if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
          return 1;
    uint64_t Fit = UnrolledBodyCost / std::max<uint64_t>(Cost, 1);
    return unsigned(std::clamp<uint64_t>(Fit, 1, MaxCopies));
  }

  // A call to a function that is not bounded (BoundedFunctions.h): one that
  // may reach a migration point, or of unknown length (libc).
  bool makesUnboundedCalls(const Loop &L) const {
    for (const BasicBlock *BB : L.blocks())
      for (const Instruction &I : *BB)
        if (const auto *Call = dyn_cast<CallBase>(&I))
          if (!isa<IntrinsicInst>(Call) && !Ctx.Bounded.callIsBounded(*Call))
            return true;
    return false;
  }

  std::optional<StripMine> stripMine(Loop &L, uint32_t Period) {
    BasicBlock *Latch = L.getLoopLatch();
    // The latch of an outer loop may lie in an inner one (which exits
    // straight to the outer header): it is rewritten for the inner.
    if (!Latch || LI.getLoopFor(Latch) != &L)
      return std::nullopt;
    auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
      return std::nullopt;
    auto *Exit = dyn_cast<ICmpInst>(Br->getCondition());
    if (!Exit || !Exit->getOperand(0)->getType()->isIntegerTy() ||
        Exit->getOperand(0)->getType()->getIntegerBitWidth() < 32)
      return std::nullopt;
    CmpInst::Predicate Pred = Exit->getPredicate();
    if (Br->getSuccessor(1) == L.getHeader())
      Pred = CmpInst::getInversePredicate(Pred);
    Value *IV = Exit->getOperand(0), *Bound = Exit->getOperand(1);
    if (!L.isLoopInvariant(Bound)) {
      std::swap(IV, Bound);
      Pred = CmpInst::getSwappedPredicate(Pred);
    }
    const auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(IV));
    if (!L.isLoopInvariant(Bound) || !Rec || Rec->getLoop() != &L || !Rec->isAffine())
      return std::nullopt;
    const SCEV *Step = Rec->getStepRecurrence(SE);
    bool Up = SE.isKnownPositive(Step);
    if (!Up && !SE.isKnownNegative(Step))
      return std::nullopt;
    // Continues while the variable has not passed the bound.
    bool Towards = Pred == CmpInst::ICMP_NE ||
                   (Up ? ICmpInst::isLT(Pred) || ICmpInst::isLE(Pred)
                       : ICmpInst::isGT(Pred) || ICmpInst::isGE(Pred));
    if (!Towards)
      return std::nullopt;
    // The variable meets the stop exactly (the bound of a != test, or a
    // whole number of steps on): the chunk's test may be an order, which
    // gives the inner loop a trip count the back end counts down to zero,
    // as it did the original loop's (a != test of a variable that steps by
    // 2 has none).  Only where the variable cannot wrap on its way.
    CmpInst::Predicate InChunk = Pred;
    if (Pred == CmpInst::ICMP_NE) {
      if (Rec->hasNoUnsignedWrap())
        InChunk = Up ? CmpInst::ICMP_ULT : CmpInst::ICMP_UGT;
      else if (Rec->hasNoSignedWrap())
        InChunk = Up ? CmpInst::ICMP_SLT : CmpInst::ICMP_SGT;
    }
    // Unrolling leaves a loop entered from a block that may also skip it.
    BasicBlock *Preheader = L.getLoopPreheader();
    if (!Preheader)
      Preheader = InsertPreheaderForLoop(&L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
    if (!Preheader)
      return std::nullopt;
    SCEVExpander Expander(SE, Preheader->getModule()->getDataLayout(), "popcorn.strip");
    Instruction *At = Preheader->getTerminator();
    if (!Expander.isSafeToExpand(Rec->getStart()) || !Expander.isSafeToExpand(Step))
      return std::nullopt;
    Value *First = Expander.expandCodeFor(Rec->getStart(), IV->getType(), At);
    Value *StepV = Expander.expandCodeFor(Step, IV->getType(), At);
    return StripMine{&L,   Period, Preheader, Latch, L.getHeader(), Exit, IV, Bound,
                     Pred, InChunk, First,   StepV, Up};
  }

  LoopInfo &LI;
  ScalarEvolution &SE;
  DominatorTree &DT;
  const LoopPointContext &Ctx;
};

// A variable of the entry block, where mem2reg takes it; Initial, if any,
// is its value on entry.
AllocaInst *entryVariable(Function &F, Type *Ty, Value *Initial, const Twine &Name) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> E(&Entry, Entry.getFirstInsertionPt());
  AllocaInst *Var = E.CreateAlloca(Ty, nullptr, Name);
  if (Initial)
    E.CreateStore(Initial, Var);
  return Var;
}

// On each of Latches' back edges, one off Countdown; at zero, a point and
// the period again.
void countDown(ArrayRef<BasicBlock *> Latches, AllocaInst *Countdown, uint32_t Period,
               const LoopPointContext &Ctx) {
  for (BasicBlock *Latch : Latches) {
    IRBuilder<> B(Latch->getTerminator());
    Value *Left = B.CreateSub(B.CreateLoad(B.getInt32Ty(), Countdown), B.getInt32(1),
                              "popcorn.countdown.next");
    B.CreateStore(Left, Countdown);
    Instruction *Due = SplitBlockAndInsertIfThen(
        B.CreateICmpEQ(Left, B.getInt32(0)), Latch->getTerminator(), false,
        MDBuilder(Latch->getContext()).createBranchWeights(1, 1u << 20));
    Ctx.InsertPoint(Due);
    new StoreInst(B.getInt32(Period), Countdown, Due->getIterator());
  }
}

// Emits, before Where, the stop of the next chunk of S's loop from the
// variable's value First at its first compare: the bound, or where the
// variable is after S.Period iterations if the run goes further.
void emitChunk(const StripMine &S, Instruction *Where, Value *First, AllocaInst *Stop) {
  IRBuilder<> B(Where);
  B.SetCurrentDebugLocation(Where->getDebugLoc());
  Value *Distance = S.Up ? B.CreateSub(S.Bound, First) : B.CreateSub(First, S.Bound);
  Value *Stride = S.Up ? S.Step : B.CreateNeg(S.Step);
  auto *Unit = dyn_cast<ConstantInt>(Stride);
  Value *Iterations = Unit && Unit->isOne() ? Distance
                                            : B.CreateUDiv(Distance, Stride, "popcorn.iterations");
  Value *Period = ConstantInt::get(First->getType(), S.Period);
  Value *Runs = B.CreateICmp(S.Continue, First, S.Bound);
  Value *Cut = B.CreateAnd(Runs, B.CreateICmpUGT(Iterations, Period), "popcorn.cut");
  Value *CutAt = B.CreateAdd(First, B.CreateMul(Period, S.Step));
  B.CreateStore(B.CreateSelect(Cut, CutAt, S.Bound, "popcorn.stop"), Stop);
}

// The latch exits the loop at the stop to a block that asks the original
// exit test: if it says go on, a point and the next chunk, and the back
// edge.
void stripMine(Function &F, const StripMine &S, const LoopPointContext &Ctx,
               SmallVectorImpl<AllocaInst *> &Variables) {
  Type *Ty = S.IV->getType();
  // Set before the loop is entered: the bound may be defined only there.
  AllocaInst *Stop = entryVariable(F, Ty, nullptr, "popcorn.stop");
  Variables.push_back(Stop);
  emitChunk(S, S.Preheader->getTerminator(), S.First, Stop);

  LLVMContext &C = F.getContext();
  auto *Br = cast<BranchInst>(S.Latch->getTerminator());
  BasicBlock *ChunkEnd = BasicBlock::Create(C, "popcorn.chunk.end", &F);
  BasicBlock *Refill = BasicBlock::Create(C, "popcorn.chunk.next", &F);
  auto *Back = BranchInst::Create(S.Header, Refill);
  Back->setDebugLoc(Br->getDebugLoc());
  // The original test, now reached once a chunk.
  Instruction *Original = Br->clone();
  Original->replaceSuccessorWith(S.Header, Refill);
  Original->insertInto(ChunkEnd, ChunkEnd->end());
  for (BasicBlock *Out : successors(Br))
    if (Out != S.Header)
      Out->replacePhiUsesWith(S.Latch, ChunkEnd);

  IRBuilder<> L(Br);
  Value *InChunk = L.CreateICmp(S.InChunk, S.IV, L.CreateLoad(Ty, Stop), "popcorn.in.chunk");
  L.CreateCondBr(InChunk, S.Header, ChunkEnd);
  Br->eraseFromParent();
  // Asked once a chunk, not on every iteration.
  if (S.Exit->hasOneUse() && S.Exit->getParent() == S.Latch)
    S.Exit->moveBefore(Original);

  IRBuilder<> R(Back);
  R.SetCurrentDebugLocation(Back->getDebugLoc());
  Value *Next = R.CreateAdd(S.IV, S.Step);
  emitChunk(S, Back, Next, Stop);
  Ctx.InsertPoint(&Refill->front());
  for (PHINode &Phi : S.Header->phis())
    Phi.addIncoming(Phi.getIncomingValueForBlock(S.Latch), Back->getParent());
  // The chunks are a loop around the original one, whose header the
  // preheader and the refill now enter through a block of their own: the
  // stop is set only there, so it does not change in the inner loop, which
  // the back end then treats as any counted loop (a count down to zero, not
  // a compare of the variable with the stop on every iteration: sieve's
  // inner loop, 5 instructions an iteration against 6).
  SplitBlockPredecessors(S.Header, {S.Preheader, Back->getParent()}, ".chunk");
}
} // namespace

unsigned insertLoopPoints(Function &F, LoopInfo &LI, ScalarEvolution &SE, DominatorTree &DT,
                          const LoopPointContext &Ctx) {
  Planner Plan(LI, SE, DT, Ctx);
  for (Loop *L : LI)
    Plan.plan(*L);
  // Copied while the analyses still hold: before any block is split.  A
  // copied loop keeps its place in LoopInfo, with the copies' latch.
  for (auto [L, Copies] : Plan.Unrolled) {
    // A value the loop defines is used after it through a phi in its exit
    // (LCSSA), which then takes the value of the copy that left.
    simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr, /*PreserveLCSSA=*/false);
    formLCSSA(*L, DT, &LI, &SE);
    UnrollLoopOptions Options{Copies, /*Force=*/true, /*Runtime=*/false,
                              /*AllowExpensiveTripCount=*/false, /*UnrollRemainder=*/false,
                              /*ForgetAllSCEV=*/false};
    LoopUnrollResult R =
        UnrollLoop(L, Options, &LI, &SE, &DT, nullptr, nullptr, nullptr, /*PreserveLCSSA=*/true);
    LLVM_DEBUG(dbgs() << "popcorn: loop " << L->getName() << " copied " << Copies << " times: "
                      << (R == LoopUnrollResult::PartiallyUnrolled ? "done" : "declined")
                      << "\n");
    if (R == LoopUnrollResult::FullyUnrolled)
      llvm::erase(Plan.Tested, L); // no loop left to test
  }
  // Every decision and expansion is made before the first block is split.
  SmallVector<AllocaInst *, 8> Variables;
  for (const StripMine &S : Plan.StripMines)
    stripMine(F, S, Ctx, Variables);
  // On the back edge itself, past the latch's exit test: before the test,
  // its result and whatever only the exit uses would be live across the
  // point, carried through the point's slots and merged after it on every
  // iteration (an interpreter's dispatch loop: a flag kept in memory).
  for (Loop *L : Plan.Tested) {
    SmallVector<BasicBlock *, 2> Latches;
    L->getLoopLatches(Latches);
    for (BasicBlock *Latch : Latches) {
      Instruction *Where = Latch->getTerminator();
      if (isa<BranchInst>(Where) && Where->getNumSuccessors() > 1)
        Where = SplitEdge(Latch, L->getHeader())->getTerminator();
      Ctx.InsertPoint(Where);
    }
  }
  if (!Variables.empty()) {
    DominatorTree NewDT(F);
    PromoteMemToReg(Variables, NewDT);
  }
  return Plan.StripMines.size() + Plan.Tested.size();
}

// One countdown for the whole invocation, not one per loop: an inner loop
// of fewer than Period iterations, restarted by its outer loop, would never
// reach its test (a Mandelbrot set's escape loop, 15 million instructions
// without a test).
void countAllBackEdges(Function &F, LoopInfo &LI, uint32_t Period, const LoopPointContext &Ctx) {
  SmallSetVector<BasicBlock *, 4> Latches;
  for (Loop *L : LI.getLoopsInPreorder()) {
    SmallVector<BasicBlock *, 2> OfLoop;
    L->getLoopLatches(OfLoop);
    Latches.insert(OfLoop.begin(), OfLoop.end());
  }
  if (Latches.empty())
    return;
  Type *I32 = Type::getInt32Ty(F.getContext());
  AllocaInst *Var = entryVariable(F, I32, ConstantInt::get(I32, Period), "popcorn.countdown");
  countDown(Latches.getArrayRef(), Var, Period, Ctx);
  DominatorTree DT(F);
  PromoteMemToReg({Var}, DT);
}

} // namespace popcorn
