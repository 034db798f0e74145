//===- PopcornPlugin.cpp - Register popcorn's passes with clang -----------===//
//
// Loaded by popcorn-clang into clang-19 (-fpass-plugin), so the passes run
// once, on the canonical IR, inside the front end's own pipeline.
//
//===----------------------------------------------------------------------===//
#include "HomeOnlyCalls.h"
#include "InsertMigrationPoints.h"
#include "LibcFunctions.h"
#include "LowerBlockAddresses.h"
#include "Migratable.h"
#include "ObjectStack.h"
#include "PinConstants.h"
#include "PlainLibcCalls.h"
#include "RecordCallSites.h"
#include "RejectNonPortable.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerPasses(PassBuilder &PB) {
  // Before any optimization: report on the code as written.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(popcorn::RejectNonPortablePass());
      });
  // After every optimization: what the back ends get.
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(popcorn::LowerBlockAddressesPass());
    MPM.addPass(popcorn::HomeOnlyCallsPass());
    MPM.addPass(popcorn::PlainLibcCallsPass());
    MPM.addPass(popcorn::InsertMigrationPointsPass());
    MPM.addPass(popcorn::ObjectStackPass(popcorn::isMigratable, /*LowerSlots=*/false,
                                            /*KeepPrivateObjects=*/true));
    MPM.addPass(popcorn::RecordCallSitesPass(popcorn::neverCallsBack));
    MPM.addPass(popcorn::PinConstantsPass());
  });
  // For opt -passes=... in tests.
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "popcorn-reject-non-portable")
          MPM.addPass(popcorn::RejectNonPortablePass());
        else if (Name == "popcorn-pin-constants")
          MPM.addPass(popcorn::PinConstantsPass());
        else if (Name == "popcorn-home-only-calls")
          MPM.addPass(popcorn::HomeOnlyCallsPass());
        else if (Name == "popcorn-lower-block-addresses")
          MPM.addPass(popcorn::LowerBlockAddressesPass());
        else if (Name == "popcorn-plain-libc-calls")
          MPM.addPass(popcorn::PlainLibcCallsPass());
        else if (Name == "popcorn-migration-points")
          MPM.addPass(popcorn::InsertMigrationPointsPass());
        else if (Name == "popcorn-object-stack")
          MPM.addPass(popcorn::ObjectStackPass(popcorn::isMigratable, /*LowerSlots=*/false,
                                            /*KeepPrivateObjects=*/true));
        else if (Name == "popcorn-call-sites")
          MPM.addPass(popcorn::RecordCallSitesPass(popcorn::neverCallsBack));
        else
          return false;
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "popcorn", "0.1", registerPasses};
}
