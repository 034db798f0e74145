//===- InsertMigrationPoints.h - Places where a thread may leave -*- C++ -*-===//
#ifndef POPCORN_PLUGIN_INSERTMIGRATIONPOINTS_H
#define POPCORN_PLUGIN_INSERTMIGRATIONPOINTS_H

#include "llvm/IR/PassManager.h"

namespace popcorn {

/// Inserts a migration point at the entry of every migratable function that
/// is not bounded (BoundedFunctions.h): a load of the runtime's process-wide
/// pending word and an unlikely branch to a call of the runtime's slow path,
/// which is where a thread leaves for another node and where it comes back.
class InsertMigrationPointsPass : public llvm::PassInfoMixin<InsertMigrationPointsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace popcorn

#endif
