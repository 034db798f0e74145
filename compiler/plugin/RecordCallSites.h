//===- RecordCallSites.h - Describe the frame at every call ---*- C++ -*-===//
#ifndef POPCORN_PLUGIN_RECORDCALLSITES_H
#define POPCORN_PLUGIN_RECORDCALLSITES_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// Gives every call that can be on a stack during a migration a "deopt"
/// operand bundle with the stack objects and the values live across it, and
/// a "statepoint-id" that is the same on every ISA.  Each ISA's back end
/// lowers such a call to a STATEPOINT whose stack-map record sits at the
/// call's return address and says where each value lives.
///
/// In the program every call that may reach a migration point is recorded.
/// In libc, which has no migration points, only the calls back into the
/// program are: they are indirect (qsort's comparator, main, a thread's start
/// routine, atexit handlers).
class RecordCallSitesPass : public llvm::PassInfoMixin<RecordCallSitesPass> {
public:
  enum class Scope { Program, LibcCallbacks };
  explicit RecordCallSitesPass(Scope S = Scope::Program) : CallScope(S) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Scope CallScope;
};

} // namespace popcorn

#endif
