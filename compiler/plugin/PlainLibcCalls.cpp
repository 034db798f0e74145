//===- PlainLibcCalls.cpp - Stock libc code where no thread can move ------===//
//
// qsort calls back into the program, so libc's qsort carries call-site
// records: a thread may move in the comparator, and qsort's frames below it
// are rewritten then.  The records cost: every value live across a
// comparator call crosses it through a stack slot, and qsort's sift and
// trinkle ran 1.8x and 1.5x stock musl's instructions (bench/qsortcb.c,
// callgrind).  A comparator is most often a bounded function: it has no
// migration point and calls none, so no thread can move during the sort,
// and the records would never be read.  Such calls go to the plain copy.
//
// Runs before InsertMigrationPoints and RecordCallSites: the plain copies
// are the runtime's names (__popcorn_*), whose calls get no record.
//
//===----------------------------------------------------------------------===//
#include "PlainLibcCalls.h"
#include "BoundedFunctions.h"
#include "LibcCallbacks.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-plain-libc-calls"

using namespace llvm;

namespace popcorn {

PreservedAnalyses PlainLibcCallsPass::run(Module &M, ModuleAnalysisManager &) {
  BoundedFunctions Bounded(M);
  bool Changed = false;
  for (const PlainLibcFunction &Libc : PlainLibcFunctions) {
    Function *Callee = M.getFunction(Libc.Name);
    if (!Callee || !Callee->isDeclaration()) // the program's own qsort
      continue;
    SmallVector<CallBase *, 4> Calls;
    for (User *U : Callee->users()) {
      auto *Call = dyn_cast<CallBase>(U);
      if (!Call || Call->getCalledOperand() != Callee ||
          Call->arg_size() <= Libc.CallbackArgument)
        continue;
      const auto *Callback =
          dyn_cast<Function>(Call->getArgOperand(Libc.CallbackArgument)->stripPointerCasts());
      if (Callback && Bounded.contains(*Callback))
        Calls.push_back(Call);
    }
    if (Calls.empty())
      continue;
    FunctionCallee Plain = M.getOrInsertFunction((Twine(PlainLibcPrefix) + Libc.Name).str(),
                                                 Callee->getFunctionType());
    for (CallBase *Call : Calls) {
      LLVM_DEBUG(dbgs() << "popcorn: " << Call->getFunction()->getName() << " calls "
                        << Plain.getCallee()->getName() << "\n");
      Call->setCalledFunction(Plain);
    }
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
