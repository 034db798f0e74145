//===- CodegenPasses.h - Machine passes popcorn-llc adds to each back end -===//
//
// Call-site records describe the IR values live across each recorded call
// (a STATEPOINT in machine code).  These passes keep the back end from
// holding values of its own across such a call, and check that none is left.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_CODEGEN_CODEGENPASSES_H
#define POPCORN_CODEGEN_CODEGENPASSES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class MachineFunctionPass;
class MachineInstr;
class Module;
class TargetMachine;
} // namespace llvm

namespace popcorn {

bool isRecordedCall(const llvm::MachineInstr &MI);

// Loop strength reduction, constant hoisting and CodeGenPrepare where no
// recorded call is in reach (CallFreeIRPasses.cpp); before the pipeline.
void runCallFreeIRPasses(llvm::Module &M, llvm::TargetMachine &TM);
// Before register allocation, in SSA form.
llvm::MachineFunctionPass *createRematerializeAcrossCallsPass();
// Last, after every pass that moves registers: a violation is a compile error.
llvm::MachineFunctionPass *createVerifyCallSiteRecordsPass(llvm::StringRef IsaName);

} // namespace popcorn

#endif
