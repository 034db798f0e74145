//===- ObjectStack.cpp - Stack objects on the per-thread object stack -----===//
//
// Why: a thread's native stack is rewritten when it moves to another ISA, and
// every frame moves.  C programs keep pointers to locals anywhere (in other
// locals, the heap, globals), where no record can find them.  So no object
// the program can point to stays on the native stack: after the shared
// middle end has optimized (only real stack objects are left), every alloca
// of a migratable function becomes a slice of the thread's object stack,
// ordinary memory at the same address on every ISA, untouched by a rewrite.
// (In the program, small objects no pointer to which leaves the function
// stay on the native stack: addressStaysInFunction, onlyAddressTaken.)
//
// The frame, laid out once here (so identically on every ISA):
//
//   entry:   old = *slot; base = old - FrameSize (rounded down to the
//            largest alignment); *slot = base
//   uses:    base + offset, computed next to each use, so that across a
//            call only base is live (the call-site records describe it like
//            any pointer) and the back end folds the offset into addressing
//   return:  *slot = base + FrameSize (or the saved old value, when
//            over-alignment moved base)
//   landing pad: *slot = its value at the invoke (restoreAtLandingPads):
//            base itself, the same at every invoke, unless the frame grows
//
// `slot` is the thread's object-stack pointer in struct pthread, reached from
// the thread pointer (ObjectStackSlot.h).  Variable-sized allocas (VLAs,
// alloca()) take their bytes below the current pointer; stacksave and
// stackrestore read and write the pointer itself.  After a returns_twice
// call (setjmp) the pointer gets back the value it had at the call, as a
// longjmp may have come from deeper frames.  A signal handler's frames go
// below the pointer and are gone when it returns; the signal fence after the
// entry store keeps the frame's first use after it.
//
//===----------------------------------------------------------------------===//
#include "ObjectStack.h"
#include "ObjectStackSlot.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "popcorn-object-stack"

using namespace llvm;

namespace popcorn {

namespace {
// Every object-stack frame, and every variable-sized object, starts at this
// alignment (the native stacks' own).
constexpr uint64_t FrameAlign = NativeStackAlign;

struct FrameBuilder {
  Function &F;
  FunctionCallee SlotFn;
  const DataLayout &DL;

  Value *slot(IRBuilder<> &B) { return B.CreateCall(SlotFn, {}, "popcorn.slot"); }

  Value *load(IRBuilder<> &B, const Twine &Name) {
    return B.CreateAlignedLoad(B.getPtrTy(), slot(B), Align(8), Name);
  }

  void store(IRBuilder<> &B, Value *V) { B.CreateAlignedStore(V, slot(B), Align(8)); }

  // P rounded down to a multiple of Alignment.
  static Value *alignDown(IRBuilder<> &B, Value *P, uint64_t Alignment) {
    return B.CreateIntrinsic(Intrinsic::ptrmask, {B.getPtrTy(), B.getInt64Ty()},
                             {P, B.getInt64(~(Alignment - 1))});
  }
};

struct StaticObject {
  AllocaInst *Alloca;
  uint64_t Offset;
};
} // namespace

// Replaces each use of A by base + Offset, computed just before the use (for
// a phi, at the end of the incoming block: once per block).
static void rewriteUses(AllocaInst *A, Value *Base, uint64_t Offset, Instruction *Prologue) {
  DenseMap<BasicBlock *, Value *> AtBlockEnd;
  SmallVector<Use *, 8> Uses;
  for (Use &U : A->uses())
    Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *User = cast<Instruction>(U->getUser());
    if (auto *Intrinsic = dyn_cast<IntrinsicInst>(User); Intrinsic && Intrinsic->isLifetimeStartOrEnd()) {
      Intrinsic->eraseFromParent(); // the object stack has no lifetimes
      continue;
    }
    Instruction *Where = User;
    if (auto *Phi = dyn_cast<PHINode>(User)) {
      BasicBlock *In = Phi->getIncomingBlock(*U);
      Value *&Cached = AtBlockEnd[In];
      if (!Cached) {
        IRBuilder<> B(In->getTerminator());
        Cached = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset, A->getName());
      }
      U->set(Cached);
      continue;
    }
    IRBuilder<> B(Where);
    U->set(B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset, A->getName()));
  }
  // Debug information still names A: point it at the object, right after
  // the prologue (whose next instruction may be an alloca on its way out).
  IRBuilder<> B(Prologue->getParent(), std::next(Prologue->getIterator()));
  A->replaceAllUsesWith(B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset, A->getName()));
  A->eraseFromParent();
}

static void replaceDynamicAlloca(FrameBuilder &FB, AllocaInst *A) {
  IRBuilder<> B(A);
  Value *Count = B.CreateZExtOrTrunc(A->getArraySize(), B.getInt64Ty());
  Value *Bytes = B.CreateMul(Count, B.getInt64(FB.DL.getTypeAllocSize(A->getAllocatedType())));
  Value *Top = FB.load(B, "popcorn.top");
  Value *Below = B.CreateGEP(B.getInt8Ty(), Top, B.CreateNeg(Bytes));
  Value *Object = FrameBuilder::alignDown(B, Below, std::max<uint64_t>(FrameAlign, A->getAlign().value()));
  FB.store(B, Object);
  Object->takeName(A);
  A->replaceAllUsesWith(Object);
  A->eraseFromParent();
}

// Every use of an address computed from an object is in its block, with
// no call between: after a move, no value holds an address of the frame
// the thread left.  (The object's own address is a frame index, which the
// back end computes again after a call: RematerializeAcrossCalls.)
static bool usedBeforeAnyCall(const Instruction &Address) {
  for (const User *U : Address.users()) {
    const auto *Use = cast<Instruction>(U);
    if (Use->getParent() != Address.getParent() || Use->comesBefore(&Address))
      return false;
    for (const Instruction *I = Address.getNextNode(); I != Use; I = I->getNextNode())
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        return false;
  }
  return true;
}

// An object no pointer to which can leave the function: its address is
// only loaded from and stored to, directly or through element addresses,
// or copied to and from by memcpy and the like (a lookup table, a small
// matrix indexed at run time).  No other code, and no value holding its
// address across a call, can see where it is, so it needs no
// fixed address: it stays on the native stack, addressed from the stack
// pointer as in a stock build, and a record carries its bytes
// (RecordCallSites.cpp).  Kept small, because a rewrite copies them.
static bool addressStaysInFunction(const AllocaInst &A, const DataLayout &DL) {
  constexpr uint64_t MaxBytes = 4096;
  std::optional<TypeSize> Bytes = A.getAllocationSize(DL);
  if (!Bytes || Bytes->isScalable() || Bytes->getFixedValue() > MaxBytes)
    return false;
  SmallVector<const Value *, 8> Addresses = {&A};
  while (!Addresses.empty()) {
    const Value *Address = Addresses.pop_back_val();
    for (const Use &U : Address->uses()) {
      const auto *User = cast<Instruction>(U.getUser());
      if (const auto *Load = dyn_cast<LoadInst>(User)) {
        if (Load->isVolatile())
          return false;
      } else if (const auto *Store = dyn_cast<StoreInst>(User)) {
        if (Store->isVolatile() || U.getOperandNo() != Store->getPointerOperandIndex())
          return false;
      } else if (isa<GetElementPtrInst>(User)) {
        if (!usedBeforeAnyCall(*User))
          return false;
        Addresses.push_back(User);
      } else if (const auto *II = dyn_cast<IntrinsicInst>(User)) {
        if (!II->isLifetimeStartOrEnd() &&
            !(isa<MemIntrinsic>(II) && !cast<MemIntrinsic>(II)->isVolatile() &&
              U.getOperandNo() < 2))
          return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

// Without lifetime markers, a native object shares its bytes with no other
// object or record slot: were it to share them on one ISA and not on the
// other, a record's copy of a dead object could overwrite a live one.
static void dropLifetimeMarkers(AllocaInst *A) {
  SmallVector<Instruction *, 4> Markers;
  SmallVector<Value *, 8> Addresses = {A};
  while (!Addresses.empty())
    for (User *U : Addresses.pop_back_val()->users()) {
      if (isa<GetElementPtrInst>(U))
        Addresses.push_back(U);
      else if (auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
        Markers.push_back(II);
    }
  for (Instruction *Marker : Markers)
    Marker->eraseFromParent();
}

// An object whose bytes nothing reads or writes, whose address is only
// taken as an integer: how a program finds its own stack.  gnulib's stack
// overflow handler takes the address of an unused local to find the
// stack's mapping in /proc/self/maps, and compares its size with
// RLIMIT_STACK; on the object stack that address would name the wrong
// mapping.  The object holds nothing a move could lose, so it stays on the
// native stack like a private one.
static bool onlyAddressTaken(const AllocaInst &A) {
  bool Taken = false;
  for (const User *U : A.users()) {
    if (isa<PtrToIntInst>(U))
      Taken = true;
    else if (const auto *II = dyn_cast<IntrinsicInst>(U); !II || !II->isLifetimeStartOrEnd())
      return false;
  }
  return Taken;
}

// An exception lands in a landing pad from frames that had moved the
// pointer on and never returned to put it back: the pad puts back the value
// it had at the invoke.  (Also without a frame here: the callers read their
// frames back from the pointer after a call, and a handler that goes on
// would leave them the deeper frames' value.)
//
// In a function whose frame never grows after entry, that value is the same
// at every invoke (AtEveryCall): every callee gives the pointer back, every
// landing pad puts it back, and a move leaves it where it was, the object
// stack being the same memory at the same address on every node.  The pads
// then store that one value, which RecordCallSites keeps for them in one
// slot, written once.  Loading the pointer before each invoke instead made
// each of them keep its own copy in a slot of its own: two loads and two
// stores per invoke (shapes' loop of virtual calls).
static void restoreAtLandingPads(FrameBuilder &FB, ArrayRef<InvokeInst *> Invokes,
                                 Value *AtEveryCall) {
  DenseMap<BasicBlock *, PHINode *> AtInvokeOf;
  SmallPtrSet<BasicBlock *, 8> Restored;
  for (InvokeInst *Invoke : Invokes) {
    BasicBlock *Pad = Invoke->getUnwindDest();
    if (AtEveryCall) {
      if (Restored.insert(Pad).second) {
        IRBuilder<> InPad(Pad, Pad->getFirstInsertionPt());
        FB.store(InPad, AtEveryCall);
      }
      continue;
    }
    IRBuilder<> Before(Invoke);
    Value *AtInvoke = FB.load(Before, "popcorn.at.invoke");
    PHINode *&Phi = AtInvokeOf[Pad];
    if (!Phi) {
      Phi = PHINode::Create(Before.getPtrTy(), pred_size(Pad), "popcorn.at.invokes");
      Phi->insertBefore(Pad->begin());
      IRBuilder<> InPad(Pad, Pad->getFirstInsertionPt());
      FB.store(InPad, Phi);
    }
    Phi->addIncoming(AtInvoke, Invoke->getParent());
  }
  LLVM_DEBUG(if (!Invokes.empty()) dbgs()
             << "popcorn: " << FB.F.getName() << ": " << Invokes.size() << " invoke(s), "
             << (AtEveryCall ? "one pointer for all their landing pads\n"
                             : "the pointer loaded at each\n"));
}

// Tags V as the object-stack pointer plus AboveSlot right after every call
// of the function (ObjectStackSlot.h): a record need not carry it.
static void markFrame(Instruction *V, uint64_t AboveSlot) {
  LLVMContext &Ctx = V->getContext();
  V->setMetadata(ObjectStackFrameMD,
                 MDNode::get(Ctx, ConstantAsMetadata::get(
                                      ConstantInt::get(Type::getInt64Ty(Ctx), AboveSlot))));
}

// Without a frame, the pointer at every call is its value at entry.
static Value *pointerAtEntry(FrameBuilder &FB) {
  BasicBlock &Entry = FB.F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
  auto *AtEntry = cast<Instruction>(FB.load(B, "popcorn.at.entry"));
  markFrame(AtEntry, 0);
  return AtEntry;
}

// Where the code goes on when Call returns: after it, or, for an invoke
// (a setjmp in a try block, or with a local that has a destructor), at
// the top of its normal destination, made the invoke's own.
static Instruction *afterReturn(CallBase *Call) {
  auto *Invoke = dyn_cast<InvokeInst>(Call);
  if (!Invoke)
    return Call->getNextNode();
  BasicBlock *Normal = Invoke->getNormalDest();
  if (!Normal->getSinglePredecessor())
    Normal = SplitEdge(Invoke->getParent(), Normal);
  return &*Normal->getFirstInsertionPt();
}

static bool lowerFunction(Function &F, FunctionCallee SlotFn, bool KeepPrivateObjects) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<AllocaInst *, 8> Static, Dynamic, Private;
  SmallVector<IntrinsicInst *, 4> Saves, Restores;
  SmallVector<CallBase *, 2> ReturnsTwice;
  SmallVector<InvokeInst *, 4> Invokes;
  SmallVector<ReturnInst *, 4> Returns;
  for (Instruction &I : instructions(F)) {
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (KeepPrivateObjects && A->isStaticAlloca() && A->getAlign() <= NativeStackAlign &&
          (addressStaysInFunction(*A, DL) || onlyAddressTaken(*A)))
        Private.push_back(A);
      else
        (A->isStaticAlloca() ? Static : Dynamic).push_back(A);
    } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (II->getIntrinsicID() == Intrinsic::stacksave)
        Saves.push_back(II);
      else if (II->getIntrinsicID() == Intrinsic::stackrestore)
        Restores.push_back(II);
    } else if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (Call->hasFnAttr(Attribute::ReturnsTwice))
        ReturnsTwice.push_back(Call);
      if (auto *Invoke = dyn_cast<InvokeInst>(Call))
        Invokes.push_back(Invoke);
      if (Call->isMustTailCall())
        report_fatal_error("popcorn: '" + F.getName() +
                           "' has stack objects and a musttail call; it cannot be made migratable");
    } else if (auto *Ret = dyn_cast<ReturnInst>(&I)) {
      Returns.push_back(Ret);
    }
  }
  // A longjmp may come back to a setjmp call after a move: its frame's
  // objects are where they were, on the object stack.  Not those whose
  // bytes nothing reads: their address was taken, as an integer, already.
  for (AllocaInst *A : Private) {
    if (!ReturnsTwice.empty() && !onlyAddressTaken(*A)) {
      Static.push_back(A);
      continue;
    }
    LLVM_DEBUG(dbgs() << "popcorn: " << F.getName() << ": " << A->getName()
                      << " stays on the native stack\n");
    dropLifetimeMarkers(A);
  }
  FrameBuilder FB{F, SlotFn, DL};
  // A longjmp back to this call comes from frames that had moved the
  // pointer on: put it back where it was at the call.  (Also without a
  // frame here: else a loop of longjmps would leak the deeper frames.)
  for (CallBase *Call : ReturnsTwice) {
    IRBuilder<> Before(Call);
    Value *AtCall = FB.load(Before, "popcorn.at.setjmp");
    IRBuilder<> After(afterReturn(Call));
    FB.store(After, AtCall);
  }
  // Whatever the callee, the pointer is back where it was at entry, or at
  // this function's frame, after a call; and only calls change it.
  bool FixedPointer = Dynamic.empty() && Saves.empty() && Restores.empty();
  if (Static.empty() && FixedPointer) {
    restoreAtLandingPads(FB, Invokes, Invokes.empty() ? nullptr : pointerAtEntry(FB));
    return !ReturnsTwice.empty() || !Invokes.empty();
  }

  // One layout on every ISA, even where the ISAs' front ends align an
  // object differently (x86-64 aligns every array of 16 bytes or more to
  // 16, aarch64 does not): libc is compiled once per ISA, and its frames'
  // objects must be where the other ISA's code looks for them.  So objects
  // of 16 bytes or more are 16-aligned everywhere, and the order depends
  // on alignment and size alone.  Largest alignment first: no padding
  // between objects of one alignment.
  struct Sized {
    AllocaInst *Alloca;
    uint64_t Bytes, Alignment;
  };
  SmallVector<Sized, 8> Sorted;
  for (AllocaInst *A : Static) {
    std::optional<TypeSize> Bytes = A->getAllocationSize(DL);
    if (!Bytes || Bytes->isScalable())
      report_fatal_error("popcorn: a stack object of '" + F.getName() + "' has no fixed size");
    uint64_t Fixed = Bytes->getFixedValue();
    Sorted.push_back({A, Fixed, std::max<uint64_t>(A->getAlign().value(), Fixed >= 16 ? 16 : 1)});
  }
  llvm::stable_sort(Sorted, [](const Sized &A, const Sized &B) {
    return A.Alignment != B.Alignment ? A.Alignment > B.Alignment : A.Bytes > B.Bytes;
  });
  SmallVector<StaticObject, 8> Objects;
  uint64_t Size = 0, MaxAlign = FrameAlign;
  for (const Sized &O : Sorted) {
    Size = alignTo(Size, O.Alignment);
    Objects.push_back({O.Alloca, Size});
    Size += O.Bytes;
    MaxAlign = std::max<uint64_t>(MaxAlign, O.Alignment);
  }
  // Over-aligned objects round base down by an unknown amount: the frame
  // then keeps the caller's pointer in its last word.
  bool OverAligned = MaxAlign > FrameAlign;
  uint64_t SavedOld = alignTo(Size, 8);
  uint64_t FrameSize = alignTo(OverAligned ? SavedOld + 8 : Size, FrameAlign);

  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  Value *Old = FB.load(B, "popcorn.frame.old");
  Value *Base = B.CreateGEP(B.getInt8Ty(), Old, B.getInt64(-int64_t(FrameSize)), "popcorn.frame");
  if (OverAligned) {
    Base = FrameBuilder::alignDown(B, Base, MaxAlign);
    B.CreateAlignedStore(Old, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, SavedOld), Align(8));
  }
  FB.store(B, Base);
  if (FixedPointer)
    markFrame(cast<Instruction>(OverAligned ? Base : Old), OverAligned ? 0 : FrameSize);
  Instruction *Fence = B.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
  restoreAtLandingPads(FB, Invokes, FixedPointer ? Base : nullptr);

  for (const StaticObject &O : Objects)
    rewriteUses(O.Alloca, Base, O.Offset, Fence);
  for (AllocaInst *A : Dynamic)
    replaceDynamicAlloca(FB, A);
  for (IntrinsicInst *Save : Saves) {
    IRBuilder<> At(Save);
    Value *Top = FB.load(At, "popcorn.saved");
    Save->replaceAllUsesWith(Top);
    Save->eraseFromParent();
  }
  for (IntrinsicInst *Restore : Restores) {
    IRBuilder<> At(Restore);
    FB.store(At, Restore->getArgOperand(0));
    Restore->eraseFromParent();
  }
  for (ReturnInst *Ret : Returns) {
    IRBuilder<> At(Ret);
    Value *Caller = OverAligned
                        ? At.CreateAlignedLoad(At.getPtrTy(),
                                               At.CreateConstInBoundsGEP1_64(At.getInt8Ty(), Base, SavedOld),
                                               Align(8))
                        : At.CreateConstInBoundsGEP1_64(At.getInt8Ty(), Base, FrameSize);
    FB.store(At, Caller);
  }
  LLVM_DEBUG(dbgs() << "popcorn: " << F.getName() << ": object-stack frame of " << FrameSize
                    << " bytes, " << Objects.size() << " objects, " << Dynamic.size()
                    << " variable-sized\n");
  return true;
}

PreservedAnalyses ObjectStackPass::run(Module &M, ModuleAnalysisManager &) {
  FunctionCallee SlotFn = objectStackSlotFunction(M);
  auto *SlotDecl = cast<Function>(SlotFn.getCallee());

  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && Selected(F))
      Changed |= lowerFunction(F, SlotFn, KeepPrivateObjects);
  if (SlotDecl->use_empty())
    SlotDecl->eraseFromParent();
  if (LowerSlots && !lowerObjectStackSlots(M))
    report_fatal_error("popcorn: no object-stack slot for target " + Twine(M.getTargetTriple()));
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
