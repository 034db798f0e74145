//===- HomeOnlyCalls.cpp - Calls that must be made at home ----------------===//
//
// Runs after the middle end and before migration points and records are
// added, so the inserted call gets its record.  Indirect calls to these
// functions are not seen; such a call away from home fails in libc
// (EAGAIN / ENOSYS) rather than creating a thread on the wrong node.
//
//===----------------------------------------------------------------------===//
#include "HomeOnlyCalls.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-home-only-calls"

using namespace llvm;

namespace popcorn {

static bool mustRunAtHome(StringRef Name) {
  static const StringSet<> Names = {
      // They create a thread or a process.
      "pthread_create", "thrd_create", "fork", "vfork", "_Fork", "posix_spawn",
      "posix_spawnp", "system", "popen", "execve", "execv", "execvp", "execvpe",
      "execl", "execlp", "execle", "fexecve", "daemon", "wordexp",
      // They wait for a signal sent to the process: it arrives at home.
      "pause", "sigsuspend", "sigwait", "sigwaitinfo", "sigtimedwait"};
  return Names.contains(Name);
}

PreservedAnalyses HomeOnlyCallsPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<CallBase *, 8> Calls;
  for (Function &F : M) {
    if (!F.isDeclaration() || !mustRunAtHome(F.getName()))
      continue;
    for (User *U : F.users())
      if (auto *Call = dyn_cast<CallBase>(U); Call && Call->getCalledOperand() == &F)
        Calls.push_back(Call);
  }
  if (Calls.empty())
    return PreservedAnalyses::all();
  LLVMContext &C = M.getContext();
  FunctionCallee GoHome = M.getOrInsertFunction(
      "popcorn_migrate", FunctionType::get(Type::getInt32Ty(C), {Type::getInt32Ty(C)}, false));
  for (CallBase *Call : Calls) {
    LLVM_DEBUG(dbgs() << Call->getFunction()->getName() << ": home before "
                      << Call->getCalledFunction()->getName() << "\n");
    IRBuilder<> B(Call);
    B.CreateCall(GoHome, {B.getInt32(0)});
  }
  return PreservedAnalyses::none();
}

} // namespace popcorn
