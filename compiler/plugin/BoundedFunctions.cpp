//===- BoundedFunctions.cpp - Functions no migration can happen in --------===//
//
// A depth-first walk of the call graph from every function, remembering
// each answer.  A function met again while it is still being walked is on a
// cycle of calls: unbounded, and so is every function on the way to it.
//
// Tables: an interpreter dispatches through a constant array of handlers
// (`table[op](vm, arg)`), each a few instructions long.  Recording that
// indirect call stored and reloaded every value live across it on each
// dispatch: bench/interp.c ran 1.28x stock clang's instructions.  A call
// through a load from a constant global can only reach the functions its
// initializer names.
//
//===----------------------------------------------------------------------===//
#include "BoundedFunctions.h"
#include "ObjectStackSlot.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-bounded"

using namespace llvm;

namespace popcorn {

// The constant global an indirect callee is loaded from, if it is one.
static const GlobalVariable *dispatchTable(const Value *Callee) {
  const auto *Load = dyn_cast<LoadInst>(Callee);
  if (!Load || Load->isVolatile())
    return nullptr;
  const auto *Table = dyn_cast<GlobalVariable>(getUnderlyingObject(Load->getPointerOperand()));
  if (!Table || !Table->isConstant() || !Table->hasDefinitiveInitializer())
    return nullptr;
  return Table;
}

// Calls each function the constant C names; false if C names a global that
// may be code but is not a function of this module (an alias, an ifunc).
template <typename Visit>
static bool forEachFunctionIn(const Constant *C, Visit &&Fn, SmallPtrSetImpl<const Constant *> &Seen) {
  if (!Seen.insert(C).second)
    return true;
  if (const auto *F = dyn_cast<Function>(C))
    return Fn(*F);
  if (isa<GlobalVariable>(C))
    return true; // data: calling it would be undefined
  if (isa<GlobalValue>(C))
    return false;
  for (const Use &Op : C->operands())
    if (!forEachFunctionIn(cast<Constant>(Op.get()), Fn, Seen))
      return false;
  return true;
}

BoundedFunctions::BoundedFunctions(const Module &M) {
  for (const Function &F : M) {
    bool Bounded = visit(F);
    (void)Bounded;
    LLVM_DEBUG(if (Bounded && !F.isDeclaration()) dbgs()
               << "popcorn: " << F.getName() << " is bounded\n");
  }
}

bool BoundedFunctions::contains(const Function &F) const {
  auto It = States.find(&F);
  return It != States.end() && It->second == State::Bounded;
}

bool BoundedFunctions::visit(const Function &F) const {
  auto [It, New] = States.try_emplace(&F, State::Visiting);
  if (!New)
    return It->second == State::Bounded; // Visiting: a cycle of calls
  bool Bounded = F.hasExactDefinition();
  if (Bounded) {
    SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
    FindFunctionBackedges(F, BackEdges);
    Bounded = BackEdges.empty();
  }
  for (const Instruction &I : instructions(F)) {
    if (!Bounded)
      break;
    if (const auto *Call = dyn_cast<CallBase>(&I))
      Bounded = callIsBounded(*Call);
  }
  States[&F] = Bounded ? State::Bounded : State::Unbounded;
  return Bounded;
}

bool BoundedFunctions::callIsBounded(const CallBase &Call) const {
  if (Call.isInlineAsm() || isa<CallBrInst>(Call))
    return false;
  const Value *Callee = Call.getCalledOperand()->stripPointerCasts();
  if (const auto *F = dyn_cast<Function>(Callee)) {
    // memcpy and the like become library calls as long as their operands.
    if (F->isIntrinsic())
      return !isa<MemIntrinsic>(Call);
    // Each ISA's back end turns it into an address computation.
    if (F->getName() == ObjectStackSlotName)
      return true;
    return visit(*F);
  }
  const GlobalVariable *Table = dispatchTable(Callee);
  if (!Table)
    return false;
  SmallPtrSet<const Constant *, 32> Seen;
  return forEachFunctionIn(
      Table->getInitializer(), [this](const Function &F) { return visit(F); }, Seen);
}

} // namespace popcorn
