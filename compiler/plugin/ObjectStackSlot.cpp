//===- ObjectStackSlot.cpp - Lower the object-stack slot per ISA ----------===//
//
// x86-64: a load or store through %fs (address space 257), one instruction:
// `mov %fs:0x30, %rax`.  aarch64: `mrs x8, tpidr_el0` and an access at -24.
//
//===----------------------------------------------------------------------===//
#include "ObjectStackSlot.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace popcorn {

FunctionCallee objectStackSlotFunction(Module &M) {
  FunctionCallee SlotFn = M.getOrInsertFunction(ObjectStackSlotName, PointerType::get(M.getContext(), 0));
  auto *Decl = cast<Function>(SlotFn.getCallee());
  Decl->setDoesNotThrow();
  Decl->setWillReturn();
  Decl->setDoesNotAccessMemory();
  return SlotFn;
}

// x86-64's %fs-relative address space.
static constexpr unsigned X86FsAddressSpace = 257;

static void lowerX86_64(CallInst *Slot) {
  IRBuilder<> B(Slot);
  Value *FsSlot = B.CreateIntToPtr(B.getInt64(X86_64ObjectStackSlot),
                                   B.getPtrTy(X86FsAddressSpace), "popcorn.slot");
  SmallVector<User *, 4> Users(Slot->users());
  for (User *U : Users) {
    auto *I = cast<Instruction>(U);
    IRBuilder<> At(I);
    if (auto *Load = dyn_cast<LoadInst>(I)) {
      LoadInst *New = At.CreateAlignedLoad(Load->getType(), FsSlot, Load->getAlign());
      New->takeName(Load);
      Load->replaceAllUsesWith(New);
    } else {
      auto *Store = cast<StoreInst>(I);
      At.CreateAlignedStore(Store->getValueOperand(), FsSlot, Store->getAlign());
    }
    I->eraseFromParent();
  }
}

static void lowerAArch64(CallInst *Slot) {
  IRBuilder<> B(Slot);
  Value *Tp = B.CreateIntrinsic(Intrinsic::thread_pointer, {}, {});
  Slot->replaceAllUsesWith(B.CreateConstGEP1_64(B.getInt8Ty(), Tp, AArch64ObjectStackSlot,
                                                "popcorn.slot"));
}

bool lowerObjectStackSlots(Module &M) {
  Function *SlotFn = M.getFunction(ObjectStackSlotName);
  if (!SlotFn)
    return true;
  Triple T(M.getTargetTriple());
  if (!T.isX86() && !T.isAArch64())
    return false;
  SmallVector<CallInst *, 16> Calls;
  for (User *U : SlotFn->users())
    Calls.push_back(cast<CallInst>(U));
  for (CallInst *Call : Calls) {
    if (T.isX86())
      lowerX86_64(Call);
    else
      lowerAArch64(Call);
    Call->eraseFromParent();
  }
  SlotFn->eraseFromParent();
  return true;
}

} // namespace popcorn
