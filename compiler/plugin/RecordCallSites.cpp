//===- RecordCallSites.cpp - Describe the frame at every call -------------===//
//
// Which calls: every call from a migratable function to code that may reach
// a migration point: any function but intrinsics and the runtime's own
// helpers.  A libc function counts (qsort calls back into the program).
//
// Which values: every SSA value live across the call (defined before it,
// used after it), and the native stack slots of values that cross crowded
// calls (below; recorded as frame addresses and sizes).  The program's own
// stack objects are on the object stack (ObjectStack.cpp runs first), the
// same memory on every ISA: nothing to record.  Pointers go in as integers: the back end then records
// them where the code keeps them instead of in a copy, so a value written
// there during a rewrite is the value the code uses after the return
// (DESIGN.md section 3, -use-registers-for-deopt-values).
//
// Too many live values: x86-64's register allocator runs out of registers
// when every deopt value must stay in its own home at the call (seen with 5-6
// values at a 10-argument printf, at 44 in musl's vfprintf, and with
// binary128 values: x86-64 has no callee-saved vector registers).  At a call
// with more than a few live values, the others cross the call through stack
// slots (copyAcrossCall): stored just before the call, loaded just after it,
// and the code after the call uses the loaded values.  The record names the
// slots, so a value written there is the value the code goes on with, and
// the code between calls keeps its registers.  A first-class aggregate, which
// no stack map describes, crosses likewise.
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
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

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
  if (Callee->isIntrinsic() || (NeverCallsBack && NeverCallsBack(*Callee)))
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
    "popcorn-max-live-values", cl::init(0), cl::Hidden,
    cl::desc("Values live across a call beyond this many move to the stack"));

static bool fitsStackMap(const Value *V) {
  Type *T = V->getType();
  return T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy() ||
         (T->isVectorTy() && !isa<ScalableVectorType>(T));
}

// The values that cross Call through the stack: those a stack map cannot
// describe, then floating-point and vector values (x86-64 spills them at
// every call anyway), then those with the fewest uses.
static SmallVector<Value *, 8> valuesToCopy(ArrayRef<Value *> Live) {
  SmallVector<Value *, 8> Copy, Kept;
  for (Value *V : Live)
    (fitsStackMap(V) ? Kept : Copy).push_back(V);
  if (Kept.size() > MaxLiveValues) {
    auto cost = [](Value *V) {
      bool InRegister = V->getType()->isIntegerTy() || V->getType()->isPointerTy();
      return std::make_pair(InRegister, V->getNumUses());
    };
    llvm::stable_sort(Kept, [&](Value *A, Value *B) { return cost(A) < cost(B); });
    Copy.append(Kept.begin(), Kept.end() - MaxLiveValues);
  }
  return Copy;
}

// V crosses Call through a stack slot.  Uses the call can reach read the
// reloaded value, the others V; where both reach a use, a phi merges them
// (SSAUpdater).
static void copyAcrossCall(Value *V, CallInst *Call) {
  Function &F = *Call->getFunction();
  LLVM_DEBUG(dbgs() << "popcorn: " << *V << " crosses a call of " << F.getName()
                    << " on the stack\n");
  IRBuilder<> Entry(&F.getEntryBlock(), F.getEntryBlock().begin());
  AllocaInst *Slot = Entry.CreateAlloca(V->getType(), nullptr, V->getName() + ".across");
  BasicBlock *CallBB = Call->getParent();
  new StoreInst(V, Slot, Call->getIterator());
  auto *Reload = new LoadInst(V->getType(), Slot, V->getName() + ".reload",
                              std::next(Call->getIterator()));
  BasicBlock *DefBB =
      isa<Instruction>(V) ? cast<Instruction>(V)->getParent() : &F.getEntryBlock();

  SSAUpdater Updater;
  Updater.Initialize(V->getType(), V->getName());
  Updater.AddAvailableValue(DefBB, V);
  Updater.AddAvailableValue(CallBB, Reload);
  SmallVector<Use *, 16> Uses;
  for (Use &U : V->uses())
    Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *User = cast<Instruction>(U->getUser());
    if (isa<PHINode>(User)) {
      Updater.RewriteUse(*U); // the value at the end of the incoming block
    } else if (User->getParent() == CallBB) {
      if (!User->comesBefore(Reload))
        U->set(Reload);
      else if (DefBB != CallBB)
        U->set(Updater.GetValueInMiddleOfBlock(CallBB));
    } else if (User->getParent() != DefBB) {
      Updater.RewriteUse(*U);
    } // else: below V in its own block, before any path through the call
  }
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
                           ArrayRef<Value *> Live, uint64_t Id, uint64_t Header) {
  IRBuilder<> B(Call);
  const DataLayout &DL = Call->getModule()->getDataLayout();
  SmallVector<Value *, 32> Deopt;
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
    assert(fitsStackMap(V) && "other values cross their calls on the stack");
    if (T->isPointerTy()) {
      Deopt.push_back(B.getInt64(CSR_KIND_POINTER | Bytes << CSR_SIZE_SHIFT));
      Deopt.push_back(B.CreatePtrToInt(V, B.getInt64Ty()));
    } else {
      Deopt.push_back(B.getInt64(CSR_KIND_SCALAR | Bytes << CSR_SIZE_SHIFT));
      Deopt.push_back(V);
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
    // One crowded call at a time, in program order: its copies change what
    // is live across the others (never adding to a call's count: a copy
    // only replaces a value by its reload or a merge of both).
    for (unsigned Round = 0;; ++Round) {
      if (Round > 4 * Live.size() + 8)
        report_fatal_error("popcorn: live values across the calls of '" + F.getName() +
                           "' do not settle");
      CallInst *Crowded = nullptr;
      SmallVector<Value *, 8> Copy;
      for (Instruction &I : instructions(F)) {
        auto It = Live.find(dyn_cast<CallInst>(&I));
        if (It != Live.end() && !(Copy = valuesToCopy(It->second)).empty()) {
          Crowded = It->first;
          break;
        }
      }
      if (!Crowded)
        break;
      for (Value *V : Copy)
        copyAcrossCall(V, Crowded);
      Live = liveAcrossCalls(F, Recorded);
    }
    // Stack objects left on the native stack: the slots of values that
    // cross crowded calls (the program's own objects are on the object stack
    // by now, ObjectStack.cpp), whose contents a rewrite copies.  A
    // variable-length one would move the frame's layout at run time: no
    // record of the function is complete then.
    SmallVector<AllocaInst *, 8> Allocas;
    bool HasDynamicAlloca = false;
    for (Instruction &I : instructions(F))
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        if (A->isStaticAlloca())
          Allocas.push_back(A);
        else
          HasDynamicAlloca = true;
      }

    // A va_list points into the native frame (the register save area), so
    // no frame of a function that starts one is rewritten.  Conservative:
    // its every site, not only those between va_start and va_end.
    bool StartsVaList = llvm::any_of(instructions(F), [](Instruction &I) {
      auto *II = dyn_cast<IntrinsicInst>(&I);
      return II && II->getIntrinsicID() == Intrinsic::vastart;
    });
    uint64_t Header = (HasDynamicAlloca ? 0 : CSR_COMPLETE) |
                      (CallScope == Scope::Libc ? CSR_LIBC : 0) |
                      (StartsVaList ? CSR_VA_LIST : 0);

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
      CallInst *Recorded = addRecord(Call, Allocas, Values, callSiteId(M, F, Index++, CallScope),
                                     Header);
      Replaced[Call] = Recorded;
      // The call ends its block.  Instruction selection works a block at a
      // time and merges equal expressions within one (an address computed
      // from the object-stack frame before and after the call, an aarch64
      // adrp): one value then lives across the call that no record names.
      // From another block the back end computes it anew.
      SplitBlock(Recorded->getParent(), Recorded->getNextNode());
      Changed = true;
    }
    LLVM_DEBUG(dbgs() << "popcorn: " << Index << " call-site records in " << F.getName()
                      << "\n");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
