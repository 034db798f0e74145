//===- RegisterSet.h - A thread's registers on x86-64 or aarch64 -*- C++ -*-===//
//
// One layout for both ISAs, indexed by DWARF register number as the
// migration metadata names registers.  The runtime's assembly fills and
// loads it (runtime/migration/arch/*.S use the offsets checked below), the rewrite
// reads one ISA's and writes another's.
//
// Freestanding: no libc, no allocation.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_STACKTRANSFORM_REGISTERSET_H
#define POPCORN_STACKTRANSFORM_REGISTERSET_H

#include <stddef.h>
#include <stdint.h>

namespace popcorn {

inline constexpr uint16_t EmX86_64 = 62;
inline constexpr uint16_t EmAArch64 = 183;

// DWARF numbers of the registers that locate frames.
struct FrameRegisters {
  uint16_t Sp, Fp, ReturnAddress;
};
inline constexpr FrameRegisters X86_64Frame = {7, 6, 16};
inline constexpr FrameRegisters AArch64Frame = {31, 29, 30};

inline const FrameRegisters &frameRegisters(uint16_t Machine) {
  return Machine == EmAArch64 ? AArch64Frame : X86_64Frame;
}

struct RegisterSet {
  // General registers by DWARF number: x86-64 0-15 (7, rsp, unused: see
  // Sp), aarch64 x0-x30.
  uint64_t Gpr[32];
  uint64_t Pc;
  uint64_t Sp;
  uint64_t ThreadPointer; // %fs base, tpidr_el0
  uint64_t Machine;       // ELF e_machine of the ISA these registers are of
  // Vector registers: x86-64 xmm0-15 (DWARF 17-32), aarch64 v0-v31 (64-95).
  alignas(16) uint8_t Vector[32][16];
};

// The assembly relies on these.
static_assert(offsetof(RegisterSet, Pc) == 256, "runtime/migration/arch/*.S");
static_assert(offsetof(RegisterSet, Sp) == 264, "runtime/migration/arch/*.S");
static_assert(offsetof(RegisterSet, ThreadPointer) == 272, "runtime/migration/arch/*.S");
static_assert(offsetof(RegisterSet, Vector) == 288, "runtime/migration/arch/*.S");
static_assert(sizeof(RegisterSet) == 800, "runtime/migration/arch/*.S");

// Where register Dwarf of Machine lives in R, and its width in bytes
// (0: not a register popcorn knows).  x86-64's DWARF 16 is the return
// address, kept as Pc.
inline uint8_t *registerStorage(RegisterSet &R, uint16_t Machine, uint16_t Dwarf,
                                unsigned &Width) {
  Width = 8;
  if (Machine == EmX86_64) {
    if (Dwarf == 7)
      return reinterpret_cast<uint8_t *>(&R.Sp);
    if (Dwarf == 16)
      return reinterpret_cast<uint8_t *>(&R.Pc);
    if (Dwarf < 16)
      return reinterpret_cast<uint8_t *>(&R.Gpr[Dwarf]);
    if (Dwarf >= 17 && Dwarf < 33) {
      Width = 16;
      return R.Vector[Dwarf - 17];
    }
  } else {
    if (Dwarf == 31)
      return reinterpret_cast<uint8_t *>(&R.Sp);
    if (Dwarf < 31)
      return reinterpret_cast<uint8_t *>(&R.Gpr[Dwarf]);
    if (Dwarf >= 64 && Dwarf < 96) {
      Width = 16;
      return R.Vector[Dwarf - 64];
    }
  }
  Width = 0;
  return nullptr;
}

// Highest DWARF register number plus one, for tables indexed by it.
inline constexpr unsigned MaxDwarfRegister = 96;

} // namespace popcorn

#endif
