//===- HomeOnlyCalls.h - Calls that must be made at home -------*- C++ -*-===//
#ifndef POPCORN_PLUGIN_HOMEONLYCALLS_H
#define POPCORN_PLUGIN_HOMEONLYCALLS_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// Before every call to a function that creates a thread or a process
/// (pthread_create, fork, posix_spawn, system, ...) or waits for a signal
/// (pause, sigsuspend, sigwait, ...), inserts a call popcorn_migrate(0):
/// the thread goes home first, and on the home node the call is a no-op.
///
/// Why: a node other than home hosts the one thread that moved there, and
/// only for as long as it is there; threads and processes belong to the
/// home node, which owns the program's address space, files and identity,
/// and the signals sent to the process arrive there.
/// libc cannot move the thread itself: a migration point must be a call
/// site of migratable code, and this one is the program's, with a record
/// like any other.
class HomeOnlyCallsPass : public llvm::PassInfoMixin<HomeOnlyCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace popcorn

#endif
