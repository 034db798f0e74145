//===- RetargetModule.h - Point a canonical-IR module at another ISA -*- C++ -*-===//
#ifndef POPCORN_RETARGETMODULE_H
#define POPCORN_RETARGETMODULE_H

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace popcorn {

/// Why M cannot be lowered for every ISA, or an empty string if it can: it
/// must be IR for the canonical ISA, as popcorn-clang's front end makes it.
/// IR made for another target has that target's types and calling
/// conventions, which no retargeting can undo (long double, how aggregates
/// are passed), so every ISA would run that target's program.
std::string whyNotCanonicalIr(const llvm::Module &M);

/// Rewrites M, produced by the front end and middle end for the canonical
/// ISA, so that TM's back end can lower it: sets the triple and data layout
/// and drops what only the canonical ISA understands (CPU, features,
/// aarch64-only module flags).  On x86-64, calls into libc whose signature
/// the two conventions lower differently are rebuilt the x86-64 way.
void retargetModule(llvm::Module &M, const llvm::TargetMachine &TM);

} // namespace popcorn

#endif
