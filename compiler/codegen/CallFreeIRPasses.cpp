//===- CallFreeIRPasses.cpp - The back end's IR passes where no record sees them ===//
//
// RecordSafeCodegen.h turns off three IR passes of every back end's own
// pipeline, because the values they create may live across a recorded call
// where no record describes them: loop strength reduction (new induction
// variables), constant hoisting and CodeGenPrepare.  Where no recorded call
// can be crossed they are as safe as in a stock compile, and that is where
// they matter most: the inner loop of a numeric kernel makes no call.
// Without them spectral-norm's inner loop computed its index from scratch
// on every iteration (1.25x a stock build's instructions).
//
// So each ISA's back end runs them itself, on its own copy of the module,
// just before its pipeline (where that pipeline would have run them):
//   - loop strength reduction on each loop that makes no recorded call;
//   - constant hoisting and CodeGenPrepare on each function that makes none.
//
// VerifyCallSiteRecords still checks every recorded call afterwards.
//
//===----------------------------------------------------------------------===//
#include "CodegenPasses.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/CodeGen/CodeGenPrepare.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Scalar/ConstantHoisting.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopStrengthReduce.h"

#define DEBUG_TYPE "popcorn-call-free-ir-passes"

using namespace llvm;

namespace popcorn {
namespace {

// A call RecordCallSites gave a record: it carries the live values in a
// deopt bundle.
bool hasDeoptRecord(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && Call->getOperandBundle(LLVMContext::OB_deopt);
}

struct CallFreeLoopStrengthReduce : PassInfoMixin<CallFreeLoopStrengthReduce> {
  PreservedAnalyses run(Loop &L, LoopAnalysisManager &AM, LoopStandardAnalysisResults &AR,
                        LPMUpdater &U) {
    for (const BasicBlock *B : L.blocks())
      if (any_of(*B, hasDeoptRecord)) {
        LLVM_DEBUG(dbgs() << "popcorn: no strength reduction of " << L.getName()
                          << ": it makes a recorded call\n");
        return PreservedAnalyses::all();
      }
    return LoopStrengthReducePass().run(L, AM, AR, U);
  }
};

struct CallFreeFunctionPasses : PassInfoMixin<CallFreeFunctionPasses> {
  const TargetMachine *TM;

  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (any_of(instructions(F), hasDeoptRecord))
      return PreservedAnalyses::all();
    LLVM_DEBUG(dbgs() << "popcorn: " << F.getName()
                      << " makes no recorded call: constant hoisting, CodeGenPrepare\n");
    PreservedAnalyses Preserved = ConstantHoistingPass().run(F, AM);
    AM.invalidate(F, Preserved);
    Preserved.intersect(CodeGenPreparePass(TM).run(F, AM));
    return Preserved;
  }
};

} // namespace

void runCallFreeIRPasses(Module &M, TargetMachine &TM) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  FunctionPassManager FPM;
  FPM.addPass(createFunctionToLoopPassAdaptor(CallFreeLoopStrengthReduce()));
  FPM.addPass(CallFreeFunctionPasses{{}, &TM});
  ModulePassManager MPM;
  // Function passes may only read module analyses already computed, and
  // CodeGenPrepare needs this one.
  MPM.addPass(RequireAnalysisPass<ProfileSummaryAnalysis, Module>());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, MAM);
}

} // namespace popcorn
