//===- Migratable.cpp - Which functions popcorn instruments ---------------===//
#include "Migratable.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace popcorn {

// clang records annotate("...") on functions in @llvm.global.annotations as
// { ptr function, ptr annotation string, ... }.
static bool hasNoMigrateAnnotation(const Function &F) {
  const GlobalVariable *Annotations = F.getParent()->getNamedGlobal("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return false;
  const auto *Entries = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Entries)
    return false;
  for (const Use &Entry : Entries->operands()) {
    const auto *Fields = dyn_cast<ConstantStruct>(Entry.get());
    if (!Fields || Fields->getNumOperands() < 2 ||
        Fields->getOperand(0)->stripPointerCasts() != &F)
      continue;
    const auto *Text = dyn_cast<GlobalVariable>(Fields->getOperand(1)->stripPointerCasts());
    if (!Text || !Text->hasInitializer())
      continue;
    const auto *Data = dyn_cast<ConstantDataArray>(Text->getInitializer());
    if (Data && Data->isCString() && Data->getAsCString() == "popcorn_nomigrate")
      return true;
  }
  return false;
}

static cl::list<std::string> NoMigrate(
    "popcorn-nomigrate", cl::CommaSeparated,
    cl::desc("Functions without migration points (popcorn-clang -fpopcorn-nomigrate=F,G)"));

bool isMigratable(const Function &F) {
  return !F.isDeclaration() && !F.getName().starts_with("__popcorn") &&
         !hasNoMigrateAnnotation(F) && !llvm::is_contained(NoMigrate, F.getName());
}

} // namespace popcorn
