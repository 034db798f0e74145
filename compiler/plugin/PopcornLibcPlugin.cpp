//===- PopcornLibcPlugin.cpp - popcorn's passes for compiling libc --------===//
//
// musl is compiled once per ISA with this plugin (libc-patches/build-musl.sh):
// its calls get call-site records, so a stack walk can cross the libc frames
// below the program's code that libc calls back (qsort -> comparator, libc's
// start -> main), and its constants get one address on every ISA.  libc
// itself has no migration points and may use assembly.
//
//===----------------------------------------------------------------------===//
#include "PinConstants.h"
#include "RecordCallSites.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerPasses(PassBuilder &PB) {
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(popcorn::RecordCallSitesPass(popcorn::RecordCallSitesPass::Scope::Libc));
    MPM.addPass(popcorn::PinConstantsPass());
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "popcorn-libc", "0.1", registerPasses};
}
