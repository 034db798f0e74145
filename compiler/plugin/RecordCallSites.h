//===- RecordCallSites.h - Describe the frame at every call ---*- C++ -*-===//
#ifndef POPCORN_PLUGIN_RECORDCALLSITES_H
#define POPCORN_PLUGIN_RECORDCALLSITES_H

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include <functional>

namespace popcorn {

class BoundedFunctions;

/// Gives every call that can be on a stack during a migration a "deopt"
/// operand bundle with the stack objects and the values live across it, and
/// a "statepoint-id" that is the same on every ISA.  Each ISA's back end
/// lowers such a call to a STATEPOINT whose stack-map record sits at the
/// call's return address and says where each value lives.
///
/// The same calls are recorded in the program and in libc: libc has no
/// migration points, but a thread can be in the program's code called back
/// from libc (qsort's comparator, main, a thread's start routine, atexit
/// handlers), and the libc frames below it must be walked and rewritten.
/// Which libc calls lead back is not known when one libc file is compiled
/// (qsort -> __qsort_r -> trinkle -> the comparator crosses files).
class RecordCallSitesPass : public llvm::PassInfoMixin<RecordCallSitesPass> {
public:
  enum class Scope { Program, Libc };
  /// In libc only some functions are on a path back into the program, and
  /// only some of their calls: those get records.
  struct LibcPaths {
    std::function<bool(const llvm::Function &)> OnPath;
    std::function<bool(const llvm::CallBase &)> LeadsBack;
  };
  /// Every migratable function of the program, and every call in it that
  /// may reach a migration point.  Calls to functions NeverCallsBack accepts
  /// (libc's, but for qsort and the like) cannot, nor calls to bounded
  /// functions (BoundedFunctions.h).
  explicit RecordCallSitesPass(
      std::function<bool(const llvm::Function &)> NeverCallsBack = {})
      : NeverCallsBack(std::move(NeverCallsBack)) {}
  explicit RecordCallSitesPass(LibcPaths Paths)
      : CallScope(Scope::Libc), Paths(std::move(Paths)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  /// Bounded: the module's bounded functions, in the program; null in libc.
  bool recorded(const llvm::CallBase &Call, const BoundedFunctions *Bounded) const;
  Scope CallScope = Scope::Program;
  std::function<bool(const llvm::Function &)> NeverCallsBack;
  LibcPaths Paths;
};

} // namespace popcorn

#endif
