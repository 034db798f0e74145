//===- LibcCallLowering.h - Calls into x86-64 musl, its way ---*- C++ -*-===//
#ifndef POPCORN_LIBCCALLLOWERING_H
#define POPCORN_LIBCCALLLOWERING_H

namespace llvm {
class Module;
} // namespace llvm

namespace popcorn {

/// Rewrites M's direct calls to the libc functions of LibcCallRules.def so
/// that the x86-64 back end passes their arguments and takes their results
/// where x86-64 musl, compiled natively, expects them.  The calls come from
/// aarch64 IR, lowered by the aarch64 convention.  Run on x86-64 only.
void lowerLibcCallsForX86(llvm::Module &M);

} // namespace popcorn

#endif
