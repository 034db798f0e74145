//===- PinConstants.cpp - Give every constant one address on every ISA ----===//
//
// Runs last in the middle end, so constants created by optimizations are
// covered too.  The back ends still create per-ISA constant pools and jump
// tables; only that ISA's code refers to them, so they may differ.
//
//===----------------------------------------------------------------------===//
#include "PinConstants.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#define DEBUG_TYPE "popcorn-pin-constants"

using namespace llvm;

namespace popcorn {

// Private names (.str, .str.1, __const.main.tab) repeat in every module; the
// prefix makes them unique in the program, and the same on every ISA because
// the ISAs share this module.
static std::string modulePrefix(const Module &M, PinConstantsPass::Naming Naming) {
  StringRef Source = M.getSourceFileName();
  if (Naming == PinConstantsPass::Naming::FileName)
    Source = sys::path::filename(Source);
  return "__popcorn_const." + utohexstr(xxh3_64bits(Source), true) + ".";
}

PreservedAnalyses PinConstantsPass::run(Module &M, ModuleAnalysisManager &) {
  std::string Prefix = modulePrefix(M, ModuleNaming);
  bool Changed = false;
  for (GlobalVariable &GV : M.globals()) {
    if (!GV.isConstant() || GV.isDeclaration() || GV.hasSection() ||
        GV.getName().starts_with("llvm."))
      continue;
    if (GV.hasGlobalUnnamedAddr() || GV.hasAtLeastLocalUnnamedAddr()) {
      GV.setUnnamedAddr(GlobalValue::UnnamedAddr::None);
      Changed = true;
    }
    if (GV.hasPrivateLinkage()) {
      std::string Name = Prefix + GV.getName().ltrim('.').str();
      LLVM_DEBUG(dbgs() << "popcorn: pinning " << GV.getName() << " as " << Name << "\n");
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setName(Name);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace popcorn
