//===- RecordSafeCodegen.h - Back-end options call-site records need -*- C++ -*-===//
//
// A call-site record describes the IR values live across the call; a value
// the back end itself keeps live across it would be lost by a rewrite.
// These passes create such values: machine CSE and LICM (an aarch64 adrp of
// the pending word computed at entry and reused after a call), loop
// strength reduction (new induction variables), constant hoisting, and
// CodeGenPrepare (seen: an object-stack address computed before a call for
// a store and reused after it as a call argument).  Instruction selection
// merges equal constants within a block (a format string's address kept in
// a callee-saved register across calls), so RecordCallSites ends a block
// after each recorded call, and aarch64's IR-level CFG tidy-up, which would
// merge those blocks again, is off.  Without them, every value live across
// a call is an IR value.
//
// x86-64's call frame optimization pushes stack arguments instead of storing
// them into a reserved area, so the stack pointer at a call's return address
// would differ from the one the record's frame size gives.
//
// Where no recorded call is in reach, popcorn-llc runs the three IR passes
// among them again itself (codegen/CallFreeIRPasses.cpp).
//
// popcorn-llc passes them for the program; the libc records plugin sets them
// for the files on libc's callback paths only (the rest of libc never holds
// a frame that is rewritten).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_PLUGIN_RECORDSAFECODEGEN_H
#define POPCORN_PLUGIN_RECORDSAFECODEGEN_H

namespace popcorn {

struct CodegenOption {
  const char *Name;
  bool Value;
};

inline const CodegenOption RecordSafeCodegenOptions[] = {
    {"disable-machine-cse", true},
    {"disable-machine-licm", true},
    {"disable-postra-machine-licm", true},
    {"disable-lsr", true},
    {"disable-constant-hoisting", true},
    {"disable-cgp", true},
    {"aarch64-enable-atomic-cfg-tidy", false},
    {"no-x86-call-frame-opt", true},
};

} // namespace popcorn

#endif
