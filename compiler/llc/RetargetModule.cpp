//===- RetargetModule.cpp - Point a canonical-IR module at another ISA ----===//
//
// The middle end ran once on aarch64 IR.  Every ISA's back end gets a clone of
// that module; this file makes the clone the back end's own.  Types keep
// their sizes (both ISAs are LP64 little endian and long double is fp128 on
// both), so only target-specific annotations change.
//
// One ABI detail changes too: x86-64 returns the address of a struct
// returned in memory (the sret argument) in RAX.  Its back end keeps the
// incoming address in a register of its own from the entry to every return,
// so across every recorded call, where no call-site record describes it
// (VerifyCallSiteRecords stops the compile: gnulib's gl_tree_iterator in
// m4).  On x86-64 the definitions lose the sret attribute: the address is
// still the first argument, in RDI, as before; the function just does not
// hand it back in RAX.  Callers compiled by LLVM never read RAX after such
// a call (they use the address they passed), and libc calls back into the
// program only with scalar results.
//
// A 'returned' argument (the optimizer marks one where a function returns
// it, as C++ operator<< returns *this) lets aarch64's back end assume the
// register still holds the value after the call: it keeps the value there
// across the call, where no call-site record describes it, and counts the
// landing pad's exception register as kept too (VerifyCallSiteRecords stops
// the compile: GoogleTest's AssertionResult::operator<<).  The attribute is
// only a hint: every ISA's clone loses it, on definitions and calls.
//
// LLVM 19's instruction selection of a call with a "deopt" bundle (every
// recorded call) takes its callee as the first result of the node that
// computes it: a function pointer that is the second half of a two-register
// value (a struct {data, function} passed by value, read after the entry's
// migration point: fmt's format_arg handle) was called through the first
// half.  A freeze of the callee, a node of one result, stands in between.
//
// Calls into libc whose signature the two conventions lower differently
// are rebuilt the x86-64 way (LibcCallLowering.cpp).
//
//===----------------------------------------------------------------------===//
#include "RetargetModule.h"
#include "LibcCallLowering.h"
#include "popcorn/Isa.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "popcorn-retarget"

using namespace llvm;

namespace popcorn {

// Attributes naming a CPU or its features: aarch64's (e.g. +outline-atomics,
// +neon) mean nothing, or something wrong, to another back end.  Each back
// end then uses its generic CPU model.
static const char *const IsaSpecificFnAttrs[] = {"target-cpu", "target-features",
                                                 "tune-cpu"};

// aarch64 pointer-authentication and branch-protection flags.
static bool isAArch64OnlyModuleFlag(StringRef Name) {
  return Name == "branch-target-enforcement" || Name == "sign-return-address" ||
         Name == "sign-return-address-all" || Name == "sign-return-address-with-bkey" ||
         Name == "guarded-control-stack" || Name.starts_with("ptrauth-");
}

// gdb on x86-64 reads a 16-byte float named "long double" as x87's 80-bit
// format ("<invalid float value>"); popcorn's long double is binary128 on
// every ISA.  Under the name _Float128, the same C type, gdb reads it as
// binary128.  Complex long double (clang names it "complex") is left as is.
static void describeLongDoubleAsBinary128(Module &M) {
  DebugInfoFinder Finder;
  Finder.processModule(M);
  MDString *Binary128 = MDString::get(M.getContext(), "_Float128");
  for (DIType *Type : Finder.types()) {
    auto *Basic = dyn_cast<DIBasicType>(Type);
    if (Basic && Basic->getEncoding() == dwarf::DW_ATE_float && Basic->getSizeInBits() == 128 &&
        Basic->getName() == "long double")
      Basic->replaceOperandWith(2, Binary128); // the name
  }
}

std::string whyNotCanonicalIr(const Module &M) {
  std::string Canonical = Triple::normalize(CanonicalIrIsa.Triple);
  if (Triple::normalize(M.getTargetTriple()) == Canonical)
    return "";
  StringRef Target = M.getTargetTriple();
  return ("the IR of '" + M.getSourceFileName() + "' was compiled for " +
          (Target.empty() ? "no target" : Target) + ", not " + Canonical +
          ": only popcorn-clang's IR can be compiled for every ISA")
      .str();
}

void retargetModule(Module &M, const TargetMachine &TM) {
  M.setTargetTriple(TM.getTargetTriple().str());
  M.setDataLayout(TM.createDataLayout());

  bool ToAArch64 = TM.getTargetTriple().isAArch64();
  for (Function &F : M) {
    for (const char *Attr : IsaSpecificFnAttrs)
      F.removeFnAttr(Attr);
    // clang gives a C++ file's static constructors and destructors one
    // section, .text.startup: functions that share a section cannot each
    // be at one address on every ISA, their sizes differing.  In sections
    // of their own (-ffunction-sections) they can.
    if (F.getSection() == ".text.startup")
      F.setSection("");
    // "non-leaf" is aarch64's default frame-pointer policy when optimizing;
    // x86-64's is none (the metadata's unwinding uses .eh_frame, not a
    // frame-pointer chain).  -fno-omit-frame-pointer ("all") is kept.
    if (!ToAArch64 && F.getFnAttribute("frame-pointer").getValueAsString() == "non-leaf")
      F.addFnAttr("frame-pointer", "none");
    // x86-64 would keep the sret address live across every call to return
    // it in RAX (see the file comment).
    if (!ToAArch64 && !F.isDeclaration())
      for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
        if (F.hasParamAttribute(I, Attribute::StructRet)) {
          LLVM_DEBUG(dbgs() << "popcorn: " << F.getName() << ": no sret on x86-64 (argument "
                            << I << " stays in its register, not returned in RAX)\n");
          F.removeParamAttr(I, Attribute::StructRet);
        }
    // No back end relies on a call returning its argument (file comment).
    for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
      F.removeParamAttr(I, Attribute::Returned);
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I)) {
        for (unsigned A = 0, E = Call->arg_size(); A != E; ++A)
          Call->removeParamAttr(A, Attribute::Returned);
        // The callee of a recorded indirect call (file comment).
        Value *Callee = Call->getCalledOperand();
        if (!Call->isInlineAsm() && !isa<Constant>(Callee) &&
            Call->getOperandBundle(LLVMContext::OB_deopt))
          Call->setCalledOperand(new FreezeInst(Callee, "popcorn.callee", Call));
      }
  }

  if (ToAArch64)
    return;
  lowerLibcCallsForX86(M);
  describeLongDoubleAsBinary128(M);
  SmallVector<Module::ModuleFlagEntry, 8> Flags;
  M.getModuleFlagsMetadata(Flags);
  NamedMDNode *FlagsNode = M.getModuleFlagsMetadata();
  if (!FlagsNode)
    return;
  FlagsNode->clearOperands();
  for (const Module::ModuleFlagEntry &Flag : Flags)
    if (!isAArch64OnlyModuleFlag(Flag.Key->getString()))
      M.addModuleFlag(Flag.Behavior, Flag.Key->getString(), Flag.Val);
}

} // namespace popcorn
