//===- PlainLibcCalls.h - Stock libc code where no thread can move -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_PLAINLIBCCALLS_H
#define POPCORN_PLUGIN_PLAINLIBCCALLS_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// A call to qsort, qsort_r or bsearch whose comparator is a bounded
/// function of the module (BoundedFunctions.h) goes to libc's plain copy of
/// the function (__popcorn_plain_qsort, ...), compiled without call-site
/// records: no thread can move while the call runs, so nothing would ever
/// read them.
class PlainLibcCallsPass : public llvm::PassInfoMixin<PlainLibcCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace popcorn

#endif
