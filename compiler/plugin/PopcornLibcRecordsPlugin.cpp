//===- PopcornLibcRecordsPlugin.cpp - Call-site records in libc -----------===//
//
// Experimental (POPCORN_LIBC_RECORDS): gives musl's calls call-site records,
// so a stack walk can cross the libc frames below the program's code that
// libc calls back (qsort -> comparator, libc's start -> main).  libc itself
// has no migration points.
//
//===----------------------------------------------------------------------===//
#include "RecordCallSites.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerPasses(PassBuilder &PB) {
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(popcorn::RecordCallSitesPass(popcorn::RecordCallSitesPass::Scope::Libc));
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "popcorn-libc-records", "0.1", registerPasses};
}
