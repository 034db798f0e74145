//===- Migratable.h - Which functions popcorn instruments -----*- C++ -*-===//
#ifndef POPCORN_PLUGIN_MIGRATABLE_H
#define POPCORN_PLUGIN_MIGRATABLE_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
} // namespace llvm

namespace popcorn {

// The runtime's entry points for migration points (runtime/api/MigrationPoint.cpp).
inline constexpr llvm::StringLiteral PendingWordName = "__popcorn_migration_pending";
inline constexpr llvm::StringLiteral MigrationPointName = "__popcorn_migration_point";

/// A function gets migration points and call-site records unless it is a
/// declaration, belongs to the runtime (__popcorn_*), is annotated
/// __attribute__((annotate("popcorn_nomigrate"))) or named in
/// -popcorn-nomigrate (popcorn-clang -fpopcorn-nomigrate=F,G).
bool isMigratable(const llvm::Function &F);

} // namespace popcorn

#endif
