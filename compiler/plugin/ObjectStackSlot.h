//===- ObjectStackSlot.h - Where a thread's object-stack pointer lives -*- C++ -*-===//
//
// The object-stack pointer is a word of musl's struct pthread
// (libc-patches/common/0001-object-stack.patch), at a fixed offset from the
// thread pointer that differs per ISA: x86-64's %fs points at struct
// pthread, aarch64's tpidr_el0 just past it.  The shared IR reaches it
// through calls of ObjectStackSlotName; each ISA's module replaces them with
// its own thread-pointer arithmetic before its back end runs.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_PLUGIN_OBJECTSTACKSLOT_H
#define POPCORN_PLUGIN_OBJECTSTACKSLOT_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class FunctionCallee;
class Module;
} // namespace llvm

namespace popcorn {

inline constexpr llvm::StringLiteral ObjectStackSlotName = "__popcorn_object_stack_slot";

/// Offsets of the slot from the thread pointer (checked by static
/// assertions in the libc patch).
inline constexpr int X86_64ObjectStackSlot = 0x30;
inline constexpr int AArch64ObjectStackSlot = -24;

/// Declares ObjectStackSlotName in M: a function of no arguments returning
/// the slot's address, the same at every call.
llvm::FunctionCallee objectStackSlotFunction(llvm::Module &M);

/// Names the value a function's object-stack frame is addressed from
/// (ObjectStack.cpp), in a function whose frame never grows after entry.
/// Its operand N says: right after each of the function's calls, but a
/// returns_twice one, the value is the object-stack pointer plus N, as
/// every callee gives back its own frame.  A call-site record then need not
/// carry it (RecordCallSites.cpp).
inline constexpr llvm::StringLiteral ObjectStackFrameMD = "popcorn.object.frame";

/// Replaces every call of ObjectStackSlotName in M by the address of the
/// slot on M's target.  Returns false if the target is not supported.
bool lowerObjectStackSlots(llvm::Module &M);

} // namespace popcorn

#endif
