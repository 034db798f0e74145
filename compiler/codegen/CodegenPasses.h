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
class Twine;
} // namespace llvm

namespace popcorn {

bool isRecordedCall(const llvm::MachineInstr &MI);

// Loop strength reduction, constant hoisting and CodeGenPrepare where no
// recorded call is in reach (CallFreeIRPasses.cpp); before the pipeline.
void runCallFreeIRPasses(llvm::Module &M, llvm::TargetMachine &TM);
// Before register allocation, in SSA form.
llvm::MachineFunctionPass *createRematerializeAcrossCallsPass();
// After register allocation, before frame indices become addresses: no
// stack slot the record does not name is live across a recorded call.
llvm::MachineFunctionPass *createVerifyCallSiteSlotsPass(llvm::StringRef IsaName);
// Last, after every pass that moves registers: no register the record does
// not name is live across a recorded call.
llvm::MachineFunctionPass *createVerifyCallSiteRecordsPass(llvm::StringRef IsaName);
// The compile error both checks end with: Place (a register, a stack slot)
// holds a value across Call that no record describes.
[[noreturn]] void reportUnrecorded(const llvm::MachineInstr &Call, const llvm::Twine &Place,
                                   llvm::StringRef IsaName);

} // namespace popcorn

#endif
