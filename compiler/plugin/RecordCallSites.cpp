//===- RecordCallSites.cpp - Describe the frame at every call -------------===//
//
// Which calls: every call from a migratable function to code that may reach
// a migration point: any function but intrinsics and the runtime's own
// helpers.  A libc function counts (qsort calls back into the program).
//
// Which values: every SSA value live across the call crosses it through a
// stack slot of its own (carryAcrossCalls): stored just before the call,
// loaded just after it, and the code after the call uses the loaded value.
// The record names the slots (as frame addresses and sizes), so a value a
// rewrite writes there is the value the code goes on with.  The program's
// own stack objects are on the object stack (ObjectStack.cpp runs first),
// the same memory on every ISA: nothing to record; but for the small ones
// no pointer to which leaves the function, which stay on the native stack
// and are carried by every record.
//
// Fewer slots mean fewer stores and loads around every call (an
// interpreter's dispatch loop had six of each around its one indirect
// call).  A pointer a constant offset away from another value (a field, an
// object in the object-stack frame) is computed again from that value where
// it is used.  The object-stack frame is read back from the thread's
// object-stack pointer, where every callee leaves it: the addresses of a
// function's objects then cross calls in no slot at all.  A value that does
// not change between its calls has one slot, its home (makeHome), stored
// once and read where it is used (readWhereUsed).  A migration point's slow
// path, taken only when a move is pending, is planned apart, after the other
// calls (carryAcrossPoints): what crosses it is stored and read back on that
// path alone, so that a point in a hot loop costs the loop no load or store.
//
// Why not record values where the register allocator keeps them (deopt
// operands in registers)?  A deopt operand is read at the call, never
// written: the allocator may use one copy of a value for the record and
// another after the call (seen on aarch64: a loop's running maximum recorded
// in x11 and read back from x13), and x86-64 runs out of registers when each
// value must stay in one place.  Slots make the record exact by construction;
// popcorn-llc's VerifyCallSiteRecords checks that nothing else is live
// across a recorded call.
//
// Each slot lives only from its store to its reload (but a setjmp call's),
// and says so with lifetime markers: the back end's stack colouring then lets the slots of
// different calls share memory.  Without them every slot had bytes of its
// own for the whole function: pcre2's compile_branch, with hundreds of
// calls, had a 13 KiB native frame (440 bytes with clang) and its
// recursion overflowed the stack on a pattern plain clang's build compiles.
//
// Runs last in the middle end: after inlining, which would merge a callee's
// records into its caller's.
//
//===----------------------------------------------------------------------===//
#include "RecordCallSites.h"
#include "BoundedFunctions.h"
#include "SinkReloads.h"
#include "Migratable.h"
#include "ObjectStack.h"
#include "ObjectStackSlot.h"
#include "popcorn/CallSiteRecord.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
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
#include <optional>

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

// A call the back end can make a jump (the callee returns to this
// function's caller) leaves no frame of this function to rewrite.  Should a
// back end not make it one, the walk of a stack through it finds a return
// address with no record and the move is refused, not botched.  Unrecorded,
// the call has nothing to store around it: qsort's comparator wrapper and
// the program's `return f(x)`.
static bool isSiblingCall(const CallInst &Call) {
  const auto *Ret = dyn_cast_or_null<ReturnInst>(Call.getNextNode());
  return Call.isTailCall() && Ret &&
         (!Ret->getReturnValue() || Ret->getReturnValue() == &Call);
}

// Whether every argument of Call travels in a register on both ISAs (at
// most 6 integer and 8 floating-point ones: x86-64's and aarch64's common
// part).  A back end makes a sibling call a jump only if the callee's
// arguments on the stack fit where its caller's came, which differs
// between the ISAs: aarch64 passes 8 integers in registers, x86-64 6.
// One made a jump on one ISA and a call on the other would leave a frame
// on one stack only (m4's create_pipe_bidi, 10 arguments: a call on
// aarch64, whose walk then met a return address with no record).
static bool argumentsInRegisters(const CallInst &Call) {
  unsigned Integers = 0, Floats = 0;
  for (const Use &Arg : Call.args()) {
    unsigned I = Arg.getOperandNo();
    if (Call.paramHasAttr(I, Attribute::ByVal) || Call.paramHasAttr(I, Attribute::StructRet) ||
        Call.paramHasAttr(I, Attribute::InAlloca) || Call.paramHasAttr(I, Attribute::Preallocated))
      return false;
    Type *T = Arg->getType();
    if (T->isFloatingPointTy() || T->isVectorTy())
      Floats++;
    else if (T->isIntegerTy() && T->getIntegerBitWidth() > 64)
      Integers += 2;
    else if (T->isIntegerTy() || T->isPointerTy())
      Integers++;
    else
      return false; // an aggregate: each ISA splits it its own way
  }
  return Integers <= 6 && Floats <= 8 && !Call.getFunctionType()->isVarArg();
}

// A sibling call whose arguments may not all travel in registers becomes
// a call on every ISA, and is recorded like any other.
static bool keepSiblingCallsAlike(Function &F) {
  bool Changed = false;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I);
        Call && !Call->isMustTailCall() && isSiblingCall(*Call) && !argumentsInRegisters(*Call)) {
      Call->setTailCallKind(CallInst::TCK_NoTail);
      Changed = true;
    }
  return Changed;
}

bool RecordCallSitesPass::recorded(const CallBase &Call, const BoundedFunctions *Bounded) const {
  if (Call.isInlineAsm() || Call.hasOperandBundles() || isa<CallBrInst>(Call))
    return false;
  if (const auto *Plain = dyn_cast<CallInst>(&Call);
      Plain && (Plain->isMustTailCall() || isSiblingCall(*Plain)))
    return false;
  // An invoke goes on in its landing pad too, where the reloads after it
  // go; a landing pad of C++'s kind (not Windows' funclets) can take them.
  if (const auto *Invoke = dyn_cast<InvokeInst>(&Call); Invoke && !Invoke->getLandingPadInst())
    return false;
  if (CallScope == Scope::Libc)
    return Paths.LeadsBack(Call);
  if (Bounded && Bounded->callIsBounded(Call))
    return false; // no migration while the callee runs
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

// Gives every invoke a landing pad of its own and with no phis, which goes
// on to the code the invokes shared: values an invoke's record carries are
// reloaded at the top of its own landing pad, from its own slots, and the
// phis that took them move to a block after the reloads.  Each pad starts
// with a copy of the shared one's landingpad; the shared block takes their
// values in a phi.
static bool splitLandingPads(Function &F) {
  SmallVector<BasicBlock *, 8> Shared;
  for (BasicBlock &BB : F)
    if (BB.isLandingPad() && (BB.hasNPredecessorsOrMore(2) || !BB.phis().empty()))
      Shared.push_back(&BB);
  for (BasicBlock *Pad : Shared) {
    LandingPadInst *Landing = Pad->getLandingPadInst();
    SmallVector<BasicBlock *, 8> Invokers(predecessors(Pad));
    auto *Merged = PHINode::Create(Landing->getType(), Invokers.size(),
                                   Landing->getName() + ".merged", Landing->getIterator());
    for (BasicBlock *Invoker : Invokers) {
      BasicBlock *Own = BasicBlock::Create(F.getContext(), Pad->getName() + ".own", &F, Pad);
      Instruction *Copy = Landing->clone();
      Copy->insertInto(Own, Own->end());
      BranchInst::Create(Pad, Own);
      Invoker->getTerminator()->replaceSuccessorWith(Pad, Own);
      for (PHINode &Phi : Pad->phis())
        if (&Phi != Merged)
          Phi.replaceIncomingBlockWith(Invoker, Own);
      Merged->addIncoming(Copy, Own);
    }
    Landing->replaceAllUsesWith(Merged);
    Landing->eraseFromParent();
  }
  return !Shared.empty();
}

// The SSA values live after each recorded call, by backward dataflow over the
// CFG: live-out(B) = union of live-in(S) for successors S, plus the values S's
// phis take along the edge B->S.
static DenseMap<CallBase *, SmallVector<Value *, 16>>
liveAcrossCalls(Function &F, function_ref<bool(const CallBase &)> Recorded) {
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

  DenseMap<CallBase *, SmallVector<Value *, 16>> Result;
  for (BasicBlock *BB : PostOrder) {
    SmallSetVector<Value *, 16> Live = liveOut(BB);
    for (Instruction &I : reverse(*BB)) {
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Recorded(*Call)) {
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

// Where the code goes on after each recorded call: the block after it and,
// after an invoke, its landing pad too, the invoke's own (splitLandingPads).
// Each starts with the call's reloads.
using ResumeBlocks = DenseMap<CallBase *, SmallVector<BasicBlock *, 2>>;

// Where the recorded calls of a function are.
struct CallPlaces {
  const ResumeBlocks &Resume;
  const LoopInfo &LI;
  SmallPtrSet<const BasicBlock *, 16> CallBlocks;    // ending with a recorded call
  SmallPtrSet<const Loop *, 8> LoopsWithCalls;
  // Where the versions of values after a call go in the block after it: at
  // its top, before anything made to be used there (readWhereUsed).
  DenseMap<BasicBlock *, Instruction *> VersionsBefore;

  CallPlaces(ArrayRef<CallBase *> Calls, const ResumeBlocks &Resume, const LoopInfo &LI)
      : Resume(Resume), LI(LI) {
    for (CallBase *Call : Calls) {
      CallBlocks.insert(Call->getParent());
      for (const Loop *L = LI.getLoopFor(Call->getParent()); L; L = L->getParentLoop())
        LoopsWithCalls.insert(L);
    }
  }

  Instruction *versionsBefore(BasicBlock *Next) {
    Instruction *&Top = VersionsBefore[Next];
    if (!Top)
      Top = &*Next->getFirstInsertionPt(); // after a landing pad's landingpad
    return Top;
  }
};

// How a value is had again after a call, when not from a slot of its own.
using Recompute = function_ref<Value *(CallBase *Call, Instruction *Before)>;

// Every use of a value defined in DefBB (Uses, as they were before any
// version was made) reads the version that reaches it.
static void rewriteUses(BasicBlock *DefBB, ArrayRef<Use *> Uses, SSAUpdater &Updater,
                        const DenseMap<BasicBlock *, Value *> &VersionIn) {
  for (Use *U : Uses) {
    auto *User = cast<Instruction>(U->getUser());
    BasicBlock *BB = User->getParent();
    if (isa<PHINode>(User))
      Updater.RewriteUse(*U); // the version at the end of the incoming block
    else if (Value *Version = VersionIn.lookup(BB))
      U->set(Version); // below the version at the top of its block
    else if (BB != DefBB)
      Updater.RewriteUse(*U); // the version live into its block
    // else: below V in V's block, which no call ends before the use
  }
}

// V crosses each of Calls (each the last instruction of its block) through a
// stack slot of its own: stored just before the call, reloaded at the top of
// the block after it (Places.versionsBefore); or, where Again gives a value,
// recomputed there from what is had anyway.  Every use
// of V reads the version that reaches it: V itself, a reload or
// recomputation, or a phi merging them (SSAUpdater, with all versions known
// at once, so that one pass per value does what used to take a new
// liveness analysis of the whole function after every call: quadratic, 40
// of the 47 seconds duktape.c took to compile).  The slots go to
// SlotOf[{C, V}].
//
// With a Home (makeHome), V crosses every call in that one slot, which holds
// A stack slot for a value of type Ty, in F's entry block.  Aligned to at
// most the native stack's 16 bytes: a frame holding a more aligned object
// (a <4 x i64> value is aligned to 32) is realigned at run time, so the
// distance from its CFA to its stack pointer, which a rewrite needs, is not
// known (the stack map says "unknown" and no site of the function could be
// resumed).  Loads and stores of the slot use its alignment.
static AllocaInst *createSlot(Function &F, Type *Ty, const Twine &Name) {
  const DataLayout &DL = F.getDataLayout();
  Align A = std::min(DL.getPrefTypeAlign(Ty), Align(NativeStackAlign));
  BasicBlock &Entry = F.getEntryBlock();
  return new AllocaInst(Ty, DL.getAllocaAddrSpace(), nullptr, A, Name, Entry.begin());
}

// V from its definition on: nothing is stored before the calls.
static void carryAcrossCalls(Value *V, ArrayRef<CallBase *> Calls,
                             CallPlaces &Places, Recompute Again, AllocaInst *Home,
                             DenseMap<std::pair<CallBase *, Value *>, AllocaInst *> &SlotOf) {
  Function &F = *Calls.front()->getFunction();
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *Ty = V->getType();
  uint64_t Bytes = DL.getTypeAllocSize(Ty);
  BasicBlock *DefBB =
      isa<Instruction>(V) ? cast<Instruction>(V)->getParent() : &F.getEntryBlock();
  SmallVector<Use *, 16> Uses;
  for (Use &U : V->uses())
    Uses.push_back(&U);

  SSAUpdater Updater;
  Updater.Initialize(Ty, V->getName());
  Updater.AddAvailableValue(DefBB, V);
  DenseMap<BasicBlock *, Value *> VersionIn;
  DenseMap<Value *, CallBase *> ReloadAfter;
  DenseMap<CallBase *, SmallVector<LoadInst *, 2>> ReloadsOf;
  for (CallBase *Call : Calls) {
    AllocaInst *Slot = nullptr;
    for (BasicBlock *Next : Places.Resume.lookup(Call)) {
      // Below the versions other values already have there (a root's).
      // Not computed again in a landing pad: the frames below it did not
      // return, and what they left (the object-stack pointer) is not the
      // caller's.
      Instruction *Top = Places.versionsBefore(Next);
      Value *Version = Next->isLandingPad() ? nullptr : Again(Call, Top);
      if (!Version) {
        if (!Slot)
          Slot = Home ? Home : createSlot(F, Ty, V->getName() + ".across");
        SlotOf[{Call, V}] = Slot;
        auto *Reload = new LoadInst(Ty, Slot, V->getName() + ".reload", false,
                                    Slot->getAlign(), Top->getIterator());
        ReloadsOf[Call].push_back(Reload);
        ReloadAfter[Reload] = Call;
        Version = Reload;
      }
      Updater.AddAvailableValue(Next, Version);
      VersionIn[Next] = Version;
    }
  }
  LLVM_DEBUG(dbgs() << "popcorn: " << *V << " crosses " << Calls.size() << " call(s) in "
                    << F.getName() << ", " << ReloadAfter.size() << " on the stack\n");
  // A reload no use reads (V is read again after a later call first) goes.
  auto DropUnread = [&] {
    for (auto &[Reload, Call] : ReloadAfter)
      if (Reload->use_empty())
        cast<Instruction>(Reload)->eraseFromParent();
  };
  if (Home) {
    rewriteUses(DefBB, Uses, Updater, VersionIn);
    return DropUnread();
  }

  // The version that reaches each call is the one at the end of its block:
  // nothing but the call follows what defines it there.  When that is the
  // reload after an earlier call, the value is still in that call's slot:
  // it crosses this call there too, with no store and no reload from
  // elsewhere (a chain of calls with nothing changing V between them).
  // Such shared slots live as long as the function: their lifetimes would
  // be the union of paths between calls.
  DenseMap<CallBase *, CallBase *> SlotFrom; // a call, the call whose slot it uses
  DenseMap<CallBase *, Value *> Reaching;
  for (CallBase *Call : Calls) {
    if (!SlotOf.count({Call, V}))
      continue;
    Value *R = Updater.GetValueAtEndOfBlock(Call->getParent());
    Reaching[Call] = R;
    if (CallBase *Earlier = ReloadAfter.lookup(R))
      SlotFrom[Call] = Earlier;
  }
  auto FirstOfChain = [&](CallBase *Call) {
    for (unsigned Steps = 0; SlotFrom.count(Call) && Steps <= Calls.size(); ++Steps)
      Call = SlotFrom[Call];
    return Call;
  };
  SmallPtrSet<CallBase *, 8> Shared;
  for (auto &[Call, Earlier] : SlotFrom) {
    Shared.insert(Call);
    Shared.insert(FirstOfChain(Call));
  }
  for (CallBase *Call : Calls) {
    AllocaInst *Slot = SlotOf.lookup({Call, V});
    if (!Slot)
      continue;
    ArrayRef<LoadInst *> Reloads = ReloadsOf[Call];
    if (SlotFrom.count(Call)) {
      AllocaInst *First = SlotOf.lookup({FirstOfChain(Call), V});
      for (LoadInst *Reload : Reloads)
        Reload->setOperand(Reload->getPointerOperandIndex(), First);
      SlotOf[{Call, V}] = First;
      Slot->eraseFromParent();
      continue;
    }
    // A setjmp call's slot is read again by every longjmp back to it: it
    // lives as long as the function too.
    bool Lifetime = !Shared.count(Call) && !Call->hasFnAttr(Attribute::ReturnsTwice);
    IRBuilder<> Before(Call);
    if (Lifetime) {
      Before.CreateLifetimeStart(Slot, Before.getInt64(Bytes));
      for (LoadInst *Reload : Reloads)
        IRBuilder<>(Reload->getNextNode()).CreateLifetimeEnd(Slot, Before.getInt64(Bytes));
    }
    Before.CreateAlignedStore(Reaching[Call], Slot, Slot->getAlign());
  }
  rewriteUses(DefBB, Uses, Updater, VersionIn);
  DropUnread();
}

// V crosses Crossed without being carried itself: each use of V that a
// crossed call reaches before V is defined again uses what Read makes
// instead (a read of V's home, or V computed again from its root), one per
// block, made before the block's first such use, or at the end of the
// preheader of the outermost loop around it that makes no call.  Not after
// every call: in SQLite's bytecode loop, values read or computed again after
// each of its 525 calls for the case that follows to use a few crowded out
// the registers, and were spilled again to other slots.
struct ReadPlan {
  MapVector<BasicBlock *, Instruction *> ReadBefore;        // a block's read goes before
  SmallVector<std::pair<Use *, BasicBlock *>, 16> Rewrites; // a use, the block it reads in
};

static ReadPlan planReads(Value *V, ArrayRef<CallBase *> Crossed, const CallPlaces &Places) {
  const auto *Def = dyn_cast<Instruction>(V);
  const BasicBlock *DefBB = Def ? Def->getParent() : nullptr;
  SmallPtrSet<BasicBlock *, 32> AfterCall;
  SmallVector<BasicBlock *, 32> Work;
  for (CallBase *Call : Crossed)
    append_range(Work, Places.Resume.lookup(Call));
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB != DefBB && AfterCall.insert(BB).second)
      append_range(Work, successors(BB));
  }
  // Out of loops with no call, whose preheader the calls reach (then V is
  // defined before it); not into a block a call ends, whose end is after it.
  auto ReadBlock = [&](BasicBlock *BB) {
    BasicBlock *Target = BB;
    for (const Loop *L = Places.LI.getLoopFor(BB); L; L = L->getParentLoop()) {
      BasicBlock *Preheader = L->getLoopPreheader();
      if (Places.LoopsWithCalls.count(L) || (DefBB && L->contains(DefBB)) || !Preheader ||
          !AfterCall.count(Preheader) || Places.CallBlocks.count(Preheader))
        break;
      Target = Preheader;
    }
    return Target;
  };

  ReadPlan Plan;
  for (Use &U : V->uses()) {
    auto *User = cast<Instruction>(U.getUser());
    auto *Phi = dyn_cast<PHINode>(User);
    BasicBlock *BB = Phi ? Phi->getIncomingBlock(U) : User->getParent();
    if (!AfterCall.count(BB))
      continue;
    BasicBlock *Target = ReadBlock(BB);
    Instruction *At = Phi || Target != BB ? Target->getTerminator() : User;
    auto [It, New] = Plan.ReadBefore.try_emplace(Target, At);
    if (!New && At->comesBefore(It->second))
      It->second = At;
    Plan.Rewrites.push_back({&U, Target});
  }
  return Plan;
}

static void readWhereUsed(Value *V, const ReadPlan &Plan,
                          function_ref<Value *(Instruction *Before)> Read) {
  DenseMap<BasicBlock *, Value *> ReadIn;
  for (auto &[BB, At] : Plan.ReadBefore)
    ReadIn[BB] = Read(At);
  for (auto &[U, BB] : Plan.Rewrites)
    U->set(ReadIn[BB]);
  LLVM_DEBUG(dbgs() << "popcorn: " << *V << " is read again in " << ReadIn.size()
                    << " block(s)\n");
}

// The blocks V is live into and out of: from each use up to V's definition.
struct LiveBlocks {
  SmallPtrSet<BasicBlock *, 32> In, Out;
};

static LiveBlocks liveBlocksOf(Value *V) {
  const auto *Def = dyn_cast<Instruction>(V);
  const BasicBlock *DefBB = Def ? Def->getParent() : nullptr;
  LiveBlocks Live;
  SmallVector<BasicBlock *, 32> Work;
  auto LiveInto = [&](BasicBlock *BB) {
    if (BB != DefBB && Live.In.insert(BB).second)
      Work.push_back(BB);
  };
  for (Use &U : V->uses()) {
    auto *User = cast<Instruction>(U.getUser());
    if (auto *Phi = dyn_cast<PHINode>(User)) {
      Live.Out.insert(Phi->getIncomingBlock(U));
      LiveInto(Phi->getIncomingBlock(U));
    } else {
      LiveInto(User->getParent());
    }
  }
  while (!Work.empty())
    for (BasicBlock *Pred : predecessors(Work.pop_back_val())) {
      Live.Out.insert(Pred);
      LiveInto(Pred);
    }
  return Live;
}

// The blocks a path from DefBB reaches only after a recorded call (DefBB's
// own included): one forward walk that never re-enters DefBB, each block
// visited at most twice (before a call, after one).
static SmallPtrSet<const BasicBlock *, 32>
blocksAfterCall(BasicBlock *DefBB, const SmallPtrSetImpl<const BasicBlock *> &CallBlocks) {
  SmallPtrSet<const BasicBlock *, 32> Before, After;
  SmallVector<std::pair<BasicBlock *, bool>, 32> Work{{DefBB, false}};
  while (!Work.empty()) {
    auto [BB, AfterCall] = Work.pop_back_val();
    AfterCall |= CallBlocks.count(BB) != 0;
    for (BasicBlock *Succ : successors(BB))
      if (Succ != DefBB && (AfterCall ? After : Before).insert(Succ).second)
        Work.push_back({Succ, AfterCall});
  }
  return After;
}

// V's home: one slot for all the calls it crosses, written once, before
// them, and never given back: every version of V is V's value, so the slot
// holds it at each call and at each read (reads follow calls).  It lives
// as long as V (endHome), so that the back end's stack colouring may give
// the homes of values not live together the same bytes.
//
// Written where the paths to the calls and the reads (Reads) meet, their
// nearest common dominator, in V's own loop, not where V is defined: a
// recursive function's base case, which returns before any call, then
// stores nothing.  But never past a recorded call: V would live across it
// in a register no record names (pcre2grep's main loop, which
// VerifyCallSiteRecords refused).
static AllocaInst *makeHome(Value *V, ArrayRef<CallBase *> Crossed, const ReadPlan &Reads,
                            const DominatorTree &DT, const LoopInfo &LI,
                            const SmallPtrSetImpl<const BasicBlock *> &CallBlocks) {
  Function &F = *Crossed.front()->getFunction();
  auto *Def = dyn_cast<Instruction>(V);
  BasicBlock *DefBB = Def ? Def->getParent() : &F.getEntryBlock();
  BasicBlock *Meet = Crossed.front()->getParent();
  for (CallBase *Call : Crossed)
    Meet = DT.findNearestCommonDominator(Meet, Call->getParent());
  for (auto &[BB, At] : Reads.ReadBefore)
    Meet = DT.findNearestCommonDominator(Meet, BB);
  SmallPtrSet<const BasicBlock *, 32> AfterCall = blocksAfterCall(DefBB, CallBlocks);
  while (Meet != DefBB &&
         (LI.getLoopFor(Meet) != LI.getLoopFor(DefBB) || AfterCall.count(Meet)))
    Meet = DT.getNode(Meet)->getIDom()->getBlock();

  AllocaInst *Home = createSlot(*Meet->getParent(), V->getType(), V->getName() + ".home");
  Instruction *At = &*Meet->getFirstInsertionPt();
  if (Meet == &F.getEntryBlock())
    At = &*Meet->getFirstNonPHIOrDbgOrAlloca();
  // An invoke's value exists on its normal edge only, which the block
  // after it (its own, RecordCallSitesPass::run) begins.
  if (Meet == DefBB && Def && !isa<PHINode>(Def))
    At = isa<InvokeInst>(Def) ? &*cast<InvokeInst>(Def)->getNormalDest()->getFirstInsertionPt()
                              : Def->getNextNode();
  IRBuilder<> B(At);
  ConstantInt *Bytes = B.getInt64(F.getDataLayout().getTypeAllocSize(V->getType()));
  B.CreateLifetimeStart(Home, Bytes);
  B.CreateAlignedStore(V, Home, Home->getAlign());
  return Home;
}

// The end of Home's lifetime: where V is live out of no block (after its
// reads there, before a recorded call that ends the block), and at the top
// of a block V is not live into from one it is live out of.  Called once V's
// uses are reads.
static void endHome(Value *V, AllocaInst *Home, const LiveBlocks &Live,
                    const CallPlaces &Places) {
  const DataLayout &DL = Home->getDataLayout();
  auto EndBefore = [&](Instruction *I) {
    IRBuilder<> B(I);
    B.CreateLifetimeEnd(Home, B.getInt64(DL.getTypeAllocSize(V->getType())));
  };
  SmallVector<BasicBlock *, 32> Blocks(Live.In.begin(), Live.In.end());
  auto *Def = dyn_cast<Instruction>(V);
  Blocks.push_back(Def ? Def->getParent() : &Home->getFunction()->getEntryBlock());
  SmallPtrSet<BasicBlock *, 8> Ended;
  for (BasicBlock *BB : Blocks) {
    if (!Live.Out.count(BB)) {
      // Before the recorded call that ends the block: the branch after a
      // call, or the invoke itself.
      Instruction *End = BB->getTerminator();
      EndBefore(Places.CallBlocks.count(BB) && !isa<InvokeInst>(End) ? End->getPrevNode() : End);
      continue;
    }
    for (BasicBlock *Succ : successors(BB))
      if (!Live.In.count(Succ) && Ended.insert(Succ).second)
        EndBefore(&*Succ->getFirstInsertionPt());
  }
}

// A pointer a constant offset away from another value: computed again
// after a call from that value's version, rather than carried itself.
struct Derived {
  Value *Root;
  int64_t Offset;
};

static std::optional<Derived> derivedPointer(Value *V, const DataLayout &DL) {
  if (!V->getType()->isPointerTy())
    return std::nullopt;
  APInt Offset(DL.getIndexTypeSizeInBits(V->getType()), 0);
  Value *Root = V->stripAndAccumulateConstantOffsets(DL, Offset, /*AllowNonInbounds=*/true);
  if (Root == V || (!isTracked(Root) && !isa<Constant>(Root)))
    return std::nullopt;
  return Derived{Root, Offset.getSExtValue()};
}

// The object-stack pointer plus N, if V is the value ObjectStack.cpp says
// is that after every call (ObjectStackSlot.h).
static std::optional<uint64_t> objectFrameAboveSlot(const Value *V) {
  const auto *I = dyn_cast<Instruction>(V);
  const MDNode *MD = I ? I->getMetadata(ObjectStackFrameMD) : nullptr;
  if (!MD)
    return std::nullopt;
  return mdconst::extract<ConstantInt>(MD->getOperand(0))->getZExtValue();
}

using SlotsOfCalls = DenseMap<CallBase *, SmallVector<AllocaInst *, 8>>;

// The object-stack frame (objectFrameAboveSlot) is computed again from the
// pointer after a call returns, but not in a landing pad: the frames the
// exception left did not give the pointer back.  Its landing-pad home: one
// slot for all of V's invokes, written once where the paths to them meet,
// outside their loops; each landing pad reads it.  V does not change (an
// SSA value), so that one copy serves every invoke: carried in a slot per
// invoke instead, the frame cost a load and a store before each of them
// (shapes' loop of virtual calls).  Not across a setjmp call, after which
// the frame is not computed again either: that one keeps its own slot.
//
// The slot is written at the end of the meeting block (before the call
// that ends it, if any), where V is either V itself or its version after
// the call before the block, computed again at its top.  Every call after
// that store names the slot in its record: a move there must take it along
// for the landing pads that follow (carryLiveValues).  Returns the store,
// or null where the frame keeps a slot per call.
static StoreInst *makePadHome(Value *V, ArrayRef<CallBase *> Crossed, const DominatorTree &DT,
                               const LoopInfo &LI, CallPlaces &Places) {
  if (llvm::any_of(Crossed, [](CallBase *C) { return C->hasFnAttr(Attribute::ReturnsTwice); }))
    return nullptr;
  BasicBlock *Meet = nullptr;
  for (CallBase *Call : Crossed)
    if (isa<InvokeInst>(Call))
      Meet = Meet ? DT.findNearestCommonDominator(Meet, Call->getParent()) : Call->getParent();
  if (!Meet)
    return nullptr;
  Function &F = *Meet->getParent();
  auto *Def = dyn_cast<Instruction>(V);
  BasicBlock *DefBB = Def ? Def->getParent() : &F.getEntryBlock();
  while (Meet != DefBB && LI.getLoopFor(Meet) != LI.getLoopFor(DefBB))
    Meet = DT.getNode(Meet)->getIDom()->getBlock();

  AllocaInst *Home = createSlot(F, V->getType(), V->getName() + ".pads");
  // Before the call that ends the block: the invoke, or the call before
  // the branch (and the reads after the call for the phis of its successors).
  Instruction *At = Meet->getTerminator();
  if (Places.CallBlocks.count(Meet))
    while (!isa<CallBase>(At) || isa<IntrinsicInst>(At))
      At = At->getPrevNode();
  // After V's version at the block's top, should a call end the block
  // before: nothing but the store there, the versions go before the store.
  Instruction *Top = Places.versionsBefore(Meet);
  IRBuilder<> B(At);
  auto *Start =
      B.CreateLifetimeStart(Home, B.getInt64(F.getDataLayout().getTypeAllocSize(V->getType())));
  StoreInst *Store = B.CreateAlignedStore(V, Home, Home->getAlign());
  if (Top == At)
    Places.VersionsBefore[Meet] = Start;
  LLVM_DEBUG(dbgs() << "popcorn: " << V->getName() << " kept for the landing pads of "
                    << F.getName() << " in one slot, written in " << Meet->getName() << "\n");
  return Store;
}

// Carries every value live across the function's recorded calls, the roots
// of derived pointers first, so that the pointers are recomputed from their
// versions.  Returns each call's slots.
static SlotsOfCalls carryLiveValues(Function &F, ArrayRef<CallBase *> Calls,
                                    DenseMap<CallBase *, SmallVector<Value *, 16>> &Live,
                                    const ResumeBlocks &Resume) {
  const DataLayout &DL = F.getDataLayout();
  DenseMap<Value *, Derived> DerivedFrom;
  MapVector<Value *, SmallVector<CallBase *, 4>> Roots, Pointers;
  for (CallBase *Call : Calls) {
    SmallSetVector<Value *, 16> Carried;
    for (Value *V : Live[Call]) {
      std::optional<Derived> D = derivedPointer(V, DL);
      if (!D) {
        Carried.insert(V);
        continue;
      }
      DerivedFrom[V] = *D;
      Pointers[V].push_back(Call);
      if (!isa<Constant>(D->Root))
        Carried.insert(D->Root);
    }
    for (Value *V : Carried)
      Roots[V].push_back(Call);
  }
  if (Roots.empty())
    return SlotsOfCalls();

  // A value defined outside the loops of all the calls it crosses (or in no
  // loop, crossing calls in none) lives in a home slot (makeHome): stored
  // once, where it is defined.  The few homed values used most in loops are
  // read back after every call, like other values, and stay in registers
  // between calls (a loop whose call is rare then reads nothing on its
  // common path); the rest are read where they are used (readWhereUsed), as
  // a register allocator out of registers would.
  DominatorTree DT(F);
  LoopInfo LI(DT);
  CallPlaces Places(Calls, Resume, LI);
  auto Homed = [&](Value *V, ArrayRef<CallBase *> Crossed) {
    const auto *I = dyn_cast<Instruction>(V);
    const Loop *DefLoop = I ? LI.getLoopFor(I->getParent()) : nullptr;
    return !objectFrameAboveSlot(V) && llvm::all_of(Crossed, [&](CallBase *Call) {
      const Loop *L = LI.getLoopFor(Call->getParent());
      // A longjmp returns to a setjmp call from where the home may be over.
      return !Call->hasFnAttr(Attribute::ReturnsTwice) &&
             (L ? !I || !L->contains(I->getParent()) : !DefLoop);
    });
  };
  constexpr unsigned HomesInRegisters = 4;
  SmallVector<std::pair<uint64_t, Value *>, 16> ByWeight; // homed values, by uses in loops
  for (auto &[V, Crossed] : Roots) {
    if (!Homed(V, Crossed))
      continue;
    uint64_t Weight = 0;
    for (const User *U : V->users())
      Weight += uint64_t(1) << (3 * std::min(LI.getLoopDepth(cast<Instruction>(U)->getParent()), 4u));
    ByWeight.push_back({Weight, V});
  }
  llvm::stable_sort(ByWeight, [](auto &A, auto &B) { return A.first > B.first; });
  SmallPtrSet<Value *, 16> HasHome, InRegisters;
  for (auto [Weight, V] : ByWeight) {
    HasHome.insert(V);
    if (InRegisters.size() < HomesInRegisters)
      InRegisters.insert(V);
  }

  // Derived pointers first: what they are computed from where they are used
  // is then carried like any other use of their roots.
  for (auto &[V, Crossed] : Pointers) {
    Derived D = DerivedFrom[V];
    readWhereUsed(V, planReads(V, Crossed, Places), [&](Instruction *Before) -> Value * {
      IRBuilder<> B(Before);
      return B.CreateGEP(B.getInt8Ty(), D.Root, B.getInt64(D.Offset), V->getName() + ".again");
    });
  }
  DenseMap<std::pair<CallBase *, Value *>, AllocaInst *> SlotOf;
  FunctionCallee SlotFn;
  for (auto &[V, Crossed] : Roots) {
    if (HasHome.count(V)) {
      LiveBlocks Live = liveBlocksOf(V);
      bool Reloaded = InRegisters.count(V); // else read where used
      ReadPlan Reads = Reloaded ? ReadPlan() : planReads(V, Crossed, Places);
      AllocaInst *Home = makeHome(V, Crossed, Reads, DT, LI, Places.CallBlocks);
      for (CallBase *Call : Crossed)
        SlotOf[{Call, V}] = Home;
      if (Reloaded)
        carryAcrossCalls(V, Crossed, Places, [](CallBase *, Instruction *) -> Value * { return nullptr; }, Home, SlotOf);
      else
        readWhereUsed(V, Reads, [&](Instruction *Before) -> Value * {
          return new LoadInst(V->getType(), Home, V->getName() + ".reload", false,
                              Home->getAlign(), Before->getIterator());
        });
      endHome(V, Home, Live, Places);
      continue;
    }
    std::optional<uint64_t> AboveSlot = objectFrameAboveSlot(V);
    if (AboveSlot && !SlotFn)
      SlotFn = objectStackSlotFunction(*F.getParent());
    auto FromSlot = [&](CallBase *Call, Instruction *Before) -> Value * {
      if (!AboveSlot || Call->hasFnAttr(Attribute::ReturnsTwice))
        return nullptr;
      IRBuilder<> B(Before);
      Value *Pointer = B.CreateAlignedLoad(B.getPtrTy(), B.CreateCall(SlotFn),
                                           Align(8), "popcorn.frame.again");
      return B.CreateGEP(B.getInt8Ty(), Pointer, B.getInt64(*AboveSlot));
    };
    StoreInst *PadStore = AboveSlot ? makePadHome(V, Crossed, DT, LI, Places) : nullptr;
    if (!PadStore) {
      carryAcrossCalls(V, Crossed, Places, FromSlot, nullptr, SlotOf);
      continue;
    }
    auto *PadHome = cast<AllocaInst>(PadStore->getPointerOperand());
    LiveBlocks Live = liveBlocksOf(V);
    carryAcrossCalls(V, Crossed, Places, FromSlot, PadHome, SlotOf);
    for (CallBase *Call : Crossed)
      if (DT.dominates(PadStore, Call))
        SlotOf[{Call, V}] = PadHome;
    endHome(V, PadHome, Live, Places);
  }

  SlotsOfCalls Slots;
  for (auto &[V, Crossed] : Roots)
    for (CallBase *Call : Crossed)
      if (AllocaInst *Slot = SlotOf.lookup({Call, V}))
        Slots[Call].push_back(Slot);
  return Slots;
}

// A migration point's slow path (InsertMigrationPoints: a call taken only
// when a move is pending) is planned after the other calls, as if they
// were not there: each value live across one crosses it in a slot of its
// own, stored and read back on that path alone, and the common path goes
// on with the value where it was, merged with the one read back in a phi.
// Planned with the other calls, a point in a loop made it a loop with a
// call: the homes of values read in it were read on every iteration, not
// once before the loop, and values defined in it went through slots
// (bench/db.c's interpreter with loop points ran 2.2x the instructions of
// its build without them).
static void carryAcrossPoints(Function &F, ArrayRef<CallBase *> Points,
                              const ResumeBlocks &Resume, SlotsOfCalls &Slots) {
  if (Points.empty())
    return;
  SmallPtrSet<const CallBase *, 16> IsPoint(Points.begin(), Points.end());
  DenseMap<CallBase *, SmallVector<Value *, 16>> Live =
      liveAcrossCalls(F, [&](const CallBase &Call) { return IsPoint.count(&Call) != 0; });
  MapVector<Value *, SmallVector<CallBase *, 4>> Crossing;
  for (CallBase *Point : Points)
    for (Value *V : Live[Point])
      Crossing[V].push_back(Point);
  DominatorTree DT(F);
  LoopInfo LI(DT);
  CallPlaces Places(Points, Resume, LI);
  DenseMap<std::pair<CallBase *, Value *>, AllocaInst *> SlotOf;
  auto NoRecompute = [](CallBase *, Instruction *) -> Value * { return nullptr; };
  for (auto &[V, Crossed] : Crossing)
    carryAcrossCalls(V, Crossed, Places, NoRecompute, nullptr, SlotOf);
  for (auto &[V, Crossed] : Crossing)
    for (CallBase *Point : Crossed)
      if (AllocaInst *Slot = SlotOf.lookup({Point, V}))
        Slots[Point].push_back(Slot);
}

// The other calls' slots that hold, at a point, a value read after it (a
// home, a slot that a chain of calls shares): a rewrite there must carry
// them too, or the reads after it find whatever its new frame holds.  A
// slot is live across a point when a load of it is reached from the point
// before a store to it.  In the order of the calls and their slots, so
// that a build's records do not depend on where things were allocated.
static void addSlotsLiveAcross(ArrayRef<CallBase *> Points, ArrayRef<CallBase *> Others,
                               SlotsOfCalls &Slots) {
  SmallPtrSet<const CallBase *, 16> IsPoint(Points.begin(), Points.end());
  SmallVector<AllocaInst *, 32> Candidates;
  SmallPtrSet<AllocaInst *, 32> Seen;
  for (CallBase *Call : Others)
    for (AllocaInst *Slot : Slots.lookup(Call))
      if (Seen.insert(Slot).second)
        Candidates.push_back(Slot);
  for (AllocaInst *Slot : Candidates) {
    SmallSetVector<CallBase *, 8> Crossed;
    // Back from just before Last (or from BB's end) to BB's top: false if
    // a store to the slot comes first.
    auto Back = [&](BasicBlock *BB, Instruction *Last) {
      for (Instruction *I = Last ? Last->getPrevNode() : &BB->back(); I; I = I->getPrevNode()) {
        if (auto *Store = dyn_cast<StoreInst>(I); Store && Store->getPointerOperand() == Slot)
          return false;
        if (auto *Call = dyn_cast<CallBase>(I); Call && IsPoint.count(Call))
          Crossed.insert(Call);
      }
      return true;
    };
    SmallPtrSet<BasicBlock *, 32> Visited;
    SmallVector<BasicBlock *, 32> Work;
    auto FromTop = [&](BasicBlock *BB) {
      for (BasicBlock *Pred : predecessors(BB))
        if (Visited.insert(Pred).second)
          Work.push_back(Pred);
    };
    for (User *U : Slot->users())
      if (auto *Load = dyn_cast<LoadInst>(U); Load && Back(Load->getParent(), Load))
        FromTop(Load->getParent());
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (Back(BB, nullptr))
        FromTop(BB);
    }
    for (CallBase *Point : Crossed)
      Slots[Point].push_back(Slot);
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

static void addRecord(CallBase *Call, ArrayRef<AllocaInst *> Slots, uint64_t Id,
                      uint64_t Header) {
  IRBuilder<> B(Call);
  const DataLayout &DL = Call->getModule()->getDataLayout();
  // The line names the site in a mismatch report (popcorn-clang compiles
  // with line tables for this, and drops them from objects built without -g).
  if (const DebugLoc &Loc = Call->getDebugLoc())
    Header |= uint64_t(Loc.getLine()) << CSR_LINE_SHIFT;
  SmallVector<Value *, 32> Deopt = {B.getInt64(Header)};
  for (AllocaInst *A : Slots) {
    uint64_t Bytes = A->getAllocationSize(DL)->getFixedValue();
    Deopt.push_back(B.getInt64(CSR_KIND_ALLOCA | Bytes << CSR_SIZE_SHIFT));
    Deopt.push_back(A);
  }

  SmallVector<OperandBundleDef, 1> Bundles = {OperandBundleDef("deopt", Deopt)};
  CallBase *New = CallBase::Create(Call, Bundles, Call->getIterator());
  New->takeName(Call);
  New->addFnAttr(Attribute::get(Call->getContext(), "statepoint-id", utostr(Id)));
  Call->replaceAllUsesWith(New);
  Call->eraseFromParent();
}

PreservedAnalyses RecordCallSitesPass::run(Module &M, ModuleAnalysisManager &) {
  // Before any call changes: the answers are the ones InsertMigrationPoints
  // had, which gave the bounded functions no point.
  std::optional<BoundedFunctions> Bounded;
  if (CallScope == Scope::Program)
    Bounded.emplace(M);
  bool Changed = false;
  for (Function &F : M) {
    bool Instrumented = CallScope == Scope::Program
                            ? isMigratable(F)
                            : !F.isDeclaration() && Paths.OnPath(F);
    if (!Instrumented)
      continue;
    Changed |= keepSiblingCallsAlike(F);
    auto Recorded = [&](const CallBase &Call) {
      return recorded(Call, Bounded ? &*Bounded : nullptr);
    };
    Changed |= splitLandingPads(F);
    DenseMap<CallBase *, SmallVector<Value *, 16>> Live = liveAcrossCalls(F, Recorded);
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Live.count(Call))
        Calls.push_back(Call);
    // Every recorded call ends its block.  Instruction selection works a
    // block at a time and merges equal expressions within one (an address
    // computed from the object-stack frame before and after the call, an
    // aarch64 adrp): one value then lives across the call that no record
    // names.  From another block the back end computes it anew.  The
    // reloads go to the top of the block after the call.  An invoke ends
    // its block already; the block after it is a new one on its normal
    // edge, which only it reaches, and its landing pad is its own.
    ResumeBlocks Resume;
    for (CallBase *Call : Calls) {
      if (auto *Invoke = dyn_cast<InvokeInst>(Call)) {
        Resume[Call] = {SplitEdge(Invoke->getParent(), Invoke->getNormalDest()),
                        Invoke->getUnwindDest()};
        continue;
      }
      Instruction *Next = Call->getNextNode();
      SplitBlock(Call->getParent(), Next);
      Resume[Call] = {Next->getParent()};
    }
    // The objects ObjectStack left on the native stack (their address never
    // leaves the function): each record carries their bytes.
    SmallVector<AllocaInst *, 4> NativeObjects;
    for (Instruction &I : F.getEntryBlock())
      if (auto *A = dyn_cast<AllocaInst>(&I); A && A->isStaticAlloca())
        NativeObjects.push_back(A);
    SmallVector<CallBase *, 16> Others, Points;
    for (CallBase *Call : Calls) {
      const Function *Callee = Call->getCalledFunction();
      (Callee && Callee->getName() == MigrationPointName ? Points : Others).push_back(Call);
    }
    SlotsOfCalls Slots = carryLiveValues(F, Others, Live, Resume);
    carryAcrossPoints(F, Points, Resume, Slots);
    addSlotsLiveAcross(Points, Others, Slots);
    // A variable-length object left on the native stack would move the
    // frame's layout at run time: no record of the function is complete
    // then.  (The program's objects are on the object stack by now,
    // ObjectStack.cpp; what is left are the slots above.)
    bool HasDynamicAlloca = llvm::any_of(instructions(F), [](Instruction &I) {
      auto *A = dyn_cast<AllocaInst>(&I);
      return A && !A->isStaticAlloca();
    });

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

    unsigned Index = 0;
    for (CallBase *Call : Calls) {
      uint64_t Flags = Call->hasFnAttr(Attribute::ReturnsTwice) ? CSR_RETURNS_TWICE : 0;
      SmallVector<AllocaInst *, 16> Carried(NativeObjects.begin(), NativeObjects.end());
      llvm::append_range(Carried, Slots.lookup(Call));
      addRecord(Call, Carried, callSiteId(M, F, Index++, CallScope), Header | Flags);
      Changed = true;
    }
    sinkReloads(F, [&](const Value *V) {
      const auto *Slot = dyn_cast<AllocaInst>(V);
      return Slot && Slot->getParent() == &F.getEntryBlock() && !is_contained(NativeObjects, Slot);
    });
    LLVM_DEBUG(dbgs() << "popcorn: " << Index << " call-site records in " << F.getName()
                      << "\n");
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
