//===- PopcornLibcPlugin.cpp - popcorn's passes for compiling libc --------===//
//
// musl is compiled once per ISA with this plugin (libc-patches/build-musl.sh),
// so its constants and string literals get one address on every ISA, like the
// program's: a pointer libc hands out (setlocale's "C", strerror's messages)
// means the same bytes wherever the thread runs.
//
//===----------------------------------------------------------------------===//
#include "PinConstants.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerPasses(PassBuilder &PB) {
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(popcorn::PinConstantsPass(popcorn::PinConstantsPass::Naming::FileName));
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "popcorn-libc", "0.1", registerPasses};
}
