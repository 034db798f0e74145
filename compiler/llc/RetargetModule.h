//===- RetargetModule.h - Point a canonical-IR module at another ISA -*- C++ -*-===//
#ifndef POPCORN_RETARGETMODULE_H
#define POPCORN_RETARGETMODULE_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace popcorn {

/// Rewrites M, produced by the front end and middle end for the canonical
/// ISA, so that TM's back end can lower it: sets the triple and data layout
/// and drops what only the canonical ISA understands (CPU, features,
/// aarch64-only module flags).
void retargetModule(llvm::Module &M, const llvm::TargetMachine &TM);

} // namespace popcorn

#endif
