//===- RejectNonPortable.cpp - Reject code that cannot run on every ISA ---===//
//
// The front end targets aarch64 for every ISA, so it accepts aarch64 inline
// assembly and aarch64 builtins.  Lowering those for x86-64 would fail deep
// in the back end or, worse, produce a program whose ISAs disagree.  This
// pass turns them into ordinary compile errors at the source location.
//
// Locations: inline asm carries clang's "srcloc" cookie, which clang's
// diagnostic handler maps back to file:line:column even without -g; other
// instructions use their debug location when there is one.
//
//===----------------------------------------------------------------------===//
#include "RejectNonPortable.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "popcorn-reject-non-portable"

using namespace llvm;

namespace popcorn {

// Called by our stdarg.h for va_arg(ap, T) with a struct or union T: the
// ISAs pass aggregates to variadic functions in incompatible ways.
static constexpr StringLiteral VaArgAggregateMarker = "__popcorn_va_arg_aggregate";

static void report(const Instruction &I, const Twine &What) {
  const Function &F = *I.getFunction();
  // C++ functions by their source names (demangle leaves C names as they are).
  std::string Message = (What + " in function '" + demangle(F.getName()) +
                         "' cannot be compiled for every ISA")
                            .str();
  LLVM_DEBUG(dbgs() << "popcorn: rejecting " << I << "\n");
  LLVMContext &Ctx = F.getContext();
  if (isa<InlineAsm>(cast<CallBase>(I).getCalledOperand()) || I.getMetadata("srcloc"))
    Ctx.diagnose(DiagnosticInfoInlineAsm(I, Message, DS_Error));
  else
    Ctx.diagnose(DiagnosticInfoUnsupported(F, Message, I.getDebugLoc(), DS_Error));
}

static void checkCall(const CallBase &Call) {
  if (Call.isInlineAsm()) {
    report(Call, "inline assembly");
    return;
  }
  // Not getCalledFunction(): an implicitly declared function is called with
  // a type of its own, not the declaration's.
  const auto *Callee = dyn_cast<Function>(Call.getCalledOperand());
  if (!Callee)
    return;
  if (Callee->getName() == VaArgAggregateMarker) {
    report(Call, "va_arg of a struct or union type");
    return;
  }
  if (Callee->isTargetIntrinsic())
    report(Call, "the ISA-specific builtin '" + Callee->getName() + "'");
  // Another ISA's builtin (__builtin_ia32_pause) is unknown to the front
  // end; where implicit declarations are allowed, it arrives as a call.
  else if (Callee->isDeclaration() && Callee->getName().starts_with("__builtin_"))
    report(Call, "the ISA-specific builtin '" + Callee->getName() + "'");
}

PreservedAnalyses RejectNonPortablePass::run(Module &M, ModuleAnalysisManager &) {
  if (!M.getModuleInlineAsm().empty()) {
    std::string Message = "file-scope assembly in " + M.getSourceFileName() +
                          " cannot be compiled for every ISA";
    M.getContext().diagnose(DiagnosticInfoInlineAsm(Message, DS_Error));
  }
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        if (const auto *Call = dyn_cast<CallBase>(&I))
          checkCall(*Call);
  return PreservedAnalyses::all();
}

} // namespace popcorn
