//===- PopcornLibcRecordsPlugin.cpp - Call-site records in libc -----------===//
//
// A thread can be in the program's code while libc frames lie below it: libc
// calls back into the program.  Those frames must be walked and rewritten
// like the program's, so the calls of musl's functions on such a path that
// lead back (the callback, or the next function on the path) get call-site
// records (libc itself has no migration points).  The rest of libc never
// holds a frame below a migration point.
//
// The thread's base (libc_start_main_stage2 -> main, pthread start -> start
// routine) is the last frame of a walk; its calls are recorded too, so a
// rewrite can lay it out on the destination ISA.
//
// Pure C files on a path (qsort, bsearch, tsearch, ...) are compiled once,
// for the canonical ISA, with -popcorn-libc-one-ir, and popcorn-llc lowers
// that one optimized module for every ISA, as it does the program's
// (build-musl.sh): their records match by construction and they optimize as
// fully as a stock libc.  The rest of libc is compiled once per ISA, so the
// calls of those files must come out of each ISA's optimizer alike for
// their records to match (same ID, same values): before optimizing, the
// functions on a path and any that call back are kept from being inlined and
// their loops from being unrolled, decisions that depend on the ISA's cost
// model.
//
//===----------------------------------------------------------------------===//
#include "LibcCallbacks.h"
#include "ObjectStack.h"
#include "ObjectStackSlot.h"
#include "RecordSafeCodegen.h"
#include "RecordCallSites.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;
using namespace popcorn;

static cl::opt<bool> OneIr("popcorn-libc-one-ir",
                           cl::desc("This file's module is lowered for every ISA by popcorn-llc"));

static const LibcCallbackPath *callbackPath(StringRef SourceFile) {
  for (const LibcCallbackPath &Path : LibcCallbackPaths)
    if (SourceFile.ends_with(std::string("src/") + Path.File))
      return &Path;
  return nullptr;
}

static bool isOnPath(StringRef Name) {
  for (const LibcCallbackPath &Path : LibcCallbackPaths)
    if (llvm::is_contained(Path.Functions, Name))
      return true;
  return false;
}

// A call that may lead back into the program: through a function pointer
// (the callback itself), or to a function on a path, by its own name or by
// the alias it is called through (exit calls __funcs_on_exit, a weak alias
// in exit.c).
static bool leadsBack(const CallBase &Call) {
  const Value *Callee = Call.getCalledOperand()->stripPointerCasts();
  if (isa<InlineAsm>(Callee))
    return false;
  if (const auto *Alias = dyn_cast<GlobalAlias>(Callee)) {
    if (isOnPath(Alias->getName()))
      return true;
    Callee = Alias->getAliaseeObject();
  }
  const auto *F = dyn_cast<Function>(Callee);
  return !F || isOnPath(F->getName());
}

namespace {
// Keeps the calls that lead back where the source has them: a function that
// makes such calls is not inlined, and its loops are not unrolled.
struct KeepCallsInPlacePass : PassInfoMixin<KeepCallsInPlacePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (OneIr || !callbackPath(M.getSourceFileName()))
      return PreservedAnalyses::all();
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      bool CallsBack = llvm::any_of(instructions(F), [](Instruction &I) {
        auto *Call = dyn_cast<CallBase>(&I);
        return Call && !isa<IntrinsicInst>(Call) && leadsBack(*Call);
      });
      if (!CallsBack && !isOnPath(F.getName()))
        continue;
      F.removeFnAttr(Attribute::AlwaysInline);
      F.addFnAttr(Attribute::NoInline);
      for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder())
        addStringMetadataToLoop(L, "llvm.loop.unroll.disable", 1);
    }
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

// The back end runs after this plugin's passes, in the same process, one
// process per file: its options set now apply to this file only.
static void useRecordSafeCodegen() {
  StringMap<cl::Option *> &Registered = cl::getRegisteredOptions();
  for (const CodegenOption &Option : RecordSafeCodegenOptions) {
    auto *Flag = static_cast<cl::opt<bool> *>(Registered.lookup(Option.Name));
    if (!Flag)
      report_fatal_error(Twine("popcorn: LLVM has no option -") + Option.Name);
    Flag->setValue(Option.Value);
  }
}

struct LibcCallSitesPass : PassInfoMixin<LibcCallSitesPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    const LibcCallbackPath *Path = callbackPath(M.getSourceFileName());
    if (!Path)
      return PreservedAnalyses::all();
    if (!OneIr)
      useRecordSafeCodegen(); // popcorn-llc sets them for every module
    auto OnPath = [Path](const Function &F) {
      return llvm::is_contained(Path->Functions, F.getName());
    };
    // Their stack objects go to the object stack, as the program's do: a
    // rewrite moves these frames too (qsort's arrays of pointers into its
    // own locals).  A module compiled per ISA is already for its final ISA:
    // the slots of both passes are lowered here.
    popcorn::ObjectStackPass(OnPath, /*LowerSlots=*/false).run(M, AM);
    popcorn::RecordCallSitesPass({OnPath, leadsBack}).run(M, AM);
    if (!OneIr && !lowerObjectStackSlots(M))
      report_fatal_error("popcorn: no object-stack slot for target " + Twine(M.getTargetTriple()));
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};
} // namespace

static void registerPasses(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(KeepCallsInPlacePass());
  });
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(LibcCallSitesPass());
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "popcorn-libc-records", "0.1", registerPasses};
}
