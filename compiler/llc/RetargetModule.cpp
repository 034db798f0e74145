//===- RetargetModule.cpp - Point a canonical-IR module at another ISA ----===//
//
// The middle end ran once on aarch64 IR.  Every ISA's back end gets a clone of
// that module; this file makes the clone the back end's own.  Types keep
// their sizes (both ISAs are LP64 little endian and long double is fp128 on
// both), so only target-specific annotations change.
//
//===----------------------------------------------------------------------===//
#include "RetargetModule.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

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

void retargetModule(Module &M, const TargetMachine &TM) {
  M.setTargetTriple(TM.getTargetTriple().str());
  M.setDataLayout(TM.createDataLayout());

  bool ToAArch64 = TM.getTargetTriple().isAArch64();
  for (Function &F : M) {
    for (const char *Attr : IsaSpecificFnAttrs)
      F.removeFnAttr(Attr);
    // "non-leaf" is aarch64's default frame-pointer policy when optimizing;
    // x86-64's is none (the metadata's unwinding uses .eh_frame, not a
    // frame-pointer chain).  -fno-omit-frame-pointer ("all") is kept.
    if (!ToAArch64 && F.getFnAttribute("frame-pointer").getValueAsString() == "non-leaf")
      F.addFnAttr("frame-pointer", "none");
  }

  if (ToAArch64)
    return;
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
