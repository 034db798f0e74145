//===- RecordCallSites.cpp - Describe the frame at every call -------------===//
//
// Which calls: every call from a migratable function to code that may reach
// a migration point: any function but intrinsics and the runtime's own
// helpers.  A libc function counts (qsort calls back into the program).
//
// Which values: the function's stack objects (allocas, recorded as frame
// addresses) and every SSA value live across the call (defined before it,
// used after it).  Pointers go in as integers: the back end then records
// them where the code keeps them instead of in a copy, so a value written
// there during a rewrite is the value the code uses after the return
// (DESIGN.md section 3, -use-registers-for-deopt-values).  A value no stack
// map can describe (a first-class aggregate) makes the record incomplete:
// the runtime will not resume a thread there.
//
// Too many live values: x86-64's register allocator runs out of registers
// when every deopt value must stay in its own home at the call (seen with 5-6
// values at a 10-argument printf, at 44 in musl's vfprintf, and with
// binary128 values: x86-64 has no callee-saved vector registers).  Where more
// than a few values are live across a call, the cheapest of them move to the
// stack first (demoteToStack): stored once after the definition, loaded
// before each use.  The record then names their stack slot, which the code
// reads after the return, so the record stays exact.  A first-class
// aggregate, which no stack map describes, is moved likewise.
//
// Runs last in the middle end: after inlining, which would merge a callee's
// records into its caller's.
//
//===----------------------------------------------------------------------===//
#include "RecordCallSites.h"
#include "Migratable.h"
#include "popcorn/CallSiteRecord.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "popcorn-call-sites"

using namespace llvm;

namespace popcorn {

static bool isTracked(const Value *V) {
  if (isa<AllocaInst>(V))
    return false; // recorded as a stack object
  if (!isa<Argument>(V) && !isa<Instruction>(V))
    return false;
  Type *T = V->getType();
  return !T->isVoidTy() && !T->isTokenTy() && !T->isLabelTy() && !T->isMetadataTy();
}

bool RecordCallSitesPass::recorded(const CallInst &Call) const {
  if (Call.isInlineAsm() || Call.isMustTailCall() || Call.hasOperandBundles() ||
      Call.hasFnAttr(Attribute::ReturnsTwice))
    return false;
  if (CallScope == Scope::Libc)
    return Paths.LeadsBack(Call);
  // Through aliases too: musl calls many functions by an alias name.
  const auto *Callee =
      dyn_cast<Function>(Call.getCalledOperand()->stripPointerCastsAndAliases());
  if (!Callee)
    return true; // indirect: may reach anything
  if (Callee->isIntrinsic())
    return false;
  StringRef Name = Callee->getName();
  if (Name == MigrationPointName)
    return true;
  return !Name.starts_with("__popcorn") && Name != "__emutls_get_address";
}

// The SSA values live after each recorded call, by backward dataflow over the
// CFG: live-out(B) = union of live-in(S) for successors S, plus the values S's
// phis take along the edge B->S.
static DenseMap<CallInst *, SmallVector<Value *, 16>>
liveAcrossCalls(Function &F, function_ref<bool(const CallInst &)> Recorded) {
  DenseMap<const Value *, unsigned> Order; // a stable numbering for output
  for (Argument &A : F.args())
    Order[&A] = Order.size();
  for (Instruction &I : instructions(F))
    Order[&I] = Order.size();

  DenseMap<BasicBlock *, SmallSetVector<Value *, 16>> LiveIn;
  auto liveOut = [&](BasicBlock *BB) {
    SmallSetVector<Value *, 16> Out;
    for (BasicBlock *Succ : successors(BB)) {
      for (Value *V : LiveIn[Succ])
        if (!(isa<PHINode>(V) && cast<PHINode>(V)->getParent() == Succ))
          Out.insert(V);
      for (PHINode &Phi : Succ->phis()) {
        Value *In = Phi.getIncomingValueForBlock(BB);
        if (isTracked(In))
          Out.insert(In);
      }
    }
    return Out;
  };
  auto step = [](Instruction &I, SmallSetVector<Value *, 16> &Live) {
    Live.remove(&I);
    if (isa<PHINode>(I))
      return; // its operands are live on the incoming edges
    for (Value *Op : I.operands())
      if (isTracked(Op))
        Live.insert(Op);
  };

  ReversePostOrderTraversal<Function *> RPO(&F);
  SmallVector<BasicBlock *, 32> PostOrder(RPO.begin(), RPO.end());
  std::reverse(PostOrder.begin(), PostOrder.end());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : PostOrder) {
      SmallSetVector<Value *, 16> Live = liveOut(BB);
      for (Instruction &I : reverse(*BB))
        step(I, Live);
      for (PHINode &Phi : BB->phis())
        Live.insert(&Phi); // defined at the block's top, so live-in for liveOut's filter
      if (Live.size() != LiveIn[BB].size()) {
        LiveIn[BB] = std::move(Live);
        Changed = true;
      }
    }
  }

  DenseMap<CallInst *, SmallVector<Value *, 16>> Result;
  for (BasicBlock *BB : PostOrder) {
    SmallSetVector<Value *, 16> Live = liveOut(BB);
    for (Instruction &I : reverse(*BB)) {
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Recorded(*Call)) {
        SmallVector<Value *, 16> After(Live.begin(), Live.end());
        llvm::erase(After, Call);
        llvm::sort(After, [&](Value *A, Value *B) { return Order[A] < Order[B]; });
        Result[Call] = std::move(After);
      }
      step(I, Live);
    }
  }
  return Result;
}

// The most SSA values one record keeps in their homes (see above).
static cl::opt<unsigned> MaxLiveValues(
    "popcorn-max-live-values", cl::init(4), cl::Hidden,
    cl::desc("Values live across a call beyond this many move to the stack"));

static bool fitsStackMap(const Value *V) {
  Type *T = V->getType();
  return T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy() ||
         (T->isVectorTy() && !isa<ScalableVectorType>(T));
}

// Which values move to the stack: at each call with too many live values,
// those a stack map cannot describe, then floating-point and vector values
// (x86-64 spills them at every call anyway), then those with the fewest uses.
static SetVector<Value *>
valuesToDemote(Function &F, const DenseMap<CallInst *, SmallVector<Value *, 16>> &LiveAcross) {
  SetVector<Value *> Demote;
  for (Instruction &I : instructions(F)) {
    auto It = LiveAcross.find(dyn_cast<CallInst>(&I));
    if (It == LiveAcross.end())
      continue;
    const SmallVector<Value *, 16> &Live = It->second;
    SmallVector<Value *, 16> Candidates;
    unsigned Kept = 0;
    for (Value *V : Live) {
      if (!fitsStackMap(V))
        Demote.insert(V);
      else if (!Demote.contains(V))
        Candidates.push_back(V), ++Kept;
    }
    if (Kept <= MaxLiveValues)
      continue;
    auto cost = [](Value *V) {
      bool InRegister = V->getType()->isIntegerTy() || V->getType()->isPointerTy();
      return std::make_pair(InRegister, V->getNumUses());
    };
    llvm::stable_sort(Candidates, [&](Value *A, Value *B) { return cost(A) < cost(B); });
    for (Value *V : ArrayRef(Candidates).take_front(Kept - MaxLiveValues))
      Demote.insert(V);
  }
  return Demote;
}

// Moves V to a stack slot of its function (LLVM's reg2mem utilities).  An
// argument is first copied into an instruction (a freeze, which changes
// nothing of a defined value) so the utilities can handle it.
static void demoteToStack(Value *V, Function &F) {
  LLVM_DEBUG(dbgs() << "popcorn: to the stack in " << F.getName() << ": " << *V << "\n");
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    DemotePHIToStack(Phi);
    return;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I) {
    BasicBlock::iterator At = F.getEntryBlock().getFirstInsertionPt();
    while (isa<AllocaInst>(*At))
      ++At;
    I = new FreezeInst(V, V->getName() + ".copy", At);
    V->replaceUsesWithIf(I, [&](Use &U) { return U.getUser() != I; });
  }
  DemoteRegToStack(*I);
}

// One ID per call site, the same on every ISA: the program's ISAs share this
// IR.  libc is compiled once per ISA, from per-ISA source trees, so there
// only the file's name (not its directory) goes into the ID.
static uint64_t callSiteId(const Module &M, const Function &F, unsigned Index,
                           RecordCallSitesPass::Scope Scope) {
  StringRef File = M.getSourceFileName();
  if (Scope == RecordCallSitesPass::Scope::Libc)
    File = sys::path::filename(File);
  std::string Key = (File + "\n" + F.getName() + "\n" + Twine(Index)).str();
  return xxh3_64bits(Key);
}

static CallInst *addRecord(CallInst *Call, ArrayRef<AllocaInst *> Allocas,
                           ArrayRef<Value *> Live, uint64_t Id, bool Complete, bool InLibc) {
  IRBuilder<> B(Call);
  const DataLayout &DL = Call->getModule()->getDataLayout();
  SmallVector<Value *, 32> Deopt;
  uint64_t Header = (Complete ? CSR_COMPLETE : 0) | (InLibc ? CSR_LIBC : 0);
  // The line names the site in a mismatch report (popcorn-clang compiles
  // with line tables for this, and drops them from objects built without -g).
  if (const DebugLoc &Loc = Call->getDebugLoc())
    Header |= uint64_t(Loc.getLine()) << CSR_LINE_SHIFT;
  Deopt.push_back(nullptr); // the header, known at the end
  for (AllocaInst *A : Allocas) {
    std::optional<TypeSize> Size = A->getAllocationSize(DL);
    uint64_t Bytes = Size && !Size->isScalable() ? Size->getFixedValue() : 0;
    Deopt.push_back(B.getInt64(CSR_KIND_ALLOCA | Bytes << CSR_SIZE_SHIFT));
    Deopt.push_back(A);
  }
  for (Value *V : Live) {
    Type *T = V->getType();
    uint64_t Bytes = T->isSized() ? DL.getTypeStoreSize(T).getKnownMinValue() : 0;
    if (T->isPointerTy()) {
      Deopt.push_back(B.getInt64(CSR_KIND_POINTER | Bytes << CSR_SIZE_SHIFT));
      Deopt.push_back(B.CreatePtrToInt(V, B.getInt64Ty()));
    } else if (fitsStackMap(V)) {
      Deopt.push_back(B.getInt64(CSR_KIND_SCALAR | Bytes << CSR_SIZE_SHIFT));
      Deopt.push_back(V);
    } else {
      Header &= ~uint64_t(CSR_COMPLETE);
      LLVM_DEBUG(dbgs() << "popcorn: cannot record " << *V << "\n");
    }
  }
  Deopt[0] = B.getInt64(Header);

  SmallVector<OperandBundleDef, 1> Bundles = {OperandBundleDef("deopt", Deopt)};
  CallInst *New = CallInst::Create(Call, Bundles, Call->getIterator());
  New->takeName(Call);
  New->addFnAttr(Attribute::get(Call->getContext(), "statepoint-id", utostr(Id)));
  Call->replaceAllUsesWith(New);
  Call->eraseFromParent();
  return New;
}

PreservedAnalyses RecordCallSitesPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    bool Instrumented = CallScope == Scope::Program
                            ? isMigratable(F)
                            : !F.isDeclaration() && Paths.OnPath(F);
    if (!Instrumented)
      continue;
    auto Recorded = [this](const CallInst &Call) { return recorded(Call); };
    DenseMap<CallInst *, SmallVector<Value *, 16>> Live = liveAcrossCalls(F, Recorded);
    for (SetVector<Value *> Demote = valuesToDemote(F, Live); !Demote.empty();
         Demote = valuesToDemote(F, Live)) {
      for (Value *V : Demote)
        demoteToStack(V, F);
      Live = liveAcrossCalls(F, Recorded);
    }
    // Stack objects of fixed size.  A variable-length one (a VLA, alloca())
    // moves the frame's layout at run time: no record of the function is
    // complete then, and the thread is never resumed in that frame.
    SmallVector<AllocaInst *, 8> Allocas;
    bool HasDynamicAlloca = false;
    for (Instruction &I : instructions(F))
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        if (A->isStaticAlloca())
          Allocas.push_back(A);
        else
          HasDynamicAlloca = true;
      }

    SmallVector<CallInst *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Live.count(Call))
        Calls.push_back(Call);
    // A recorded call's result may be live across a later call: look it up
    // by its replacement.
    DenseMap<Value *, Value *> Replaced;
    unsigned Index = 0;
    for (CallInst *Call : Calls) {
      SmallVector<Value *, 16> Values = Live[Call];
      for (Value *&V : Values)
        if (Value *New = Replaced.lookup(V))
          V = New;
      Replaced[Call] = addRecord(Call, Allocas, Values, callSiteId(M, F, Index++, CallScope),
                                 /*Complete=*/!HasDynamicAlloca,
                                 /*InLibc=*/CallScope == Scope::Libc);
      Changed = true;
    }
    LLVM_DEBUG(dbgs() << "popcorn: " << Index << " call-site records in " << F.getName()
                      << "\n");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
