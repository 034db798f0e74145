//===- FrameCursor.cpp - Walking a thread's frames with the metadata ------===//
#include "FrameCursor.h"

namespace popcorn {

FrameCursor::FrameCursor(const IsaTables &Tables, RegisterSet &Registers)
    : Tables(Tables), Registers(Registers), Frame(frameRegisters(Tables.machine())),
      Pc(Registers.Pc), Sp(Registers.Sp) {
  enterFrame();
}

uint8_t *FrameCursor::registerLocation(uint16_t Dwarf, unsigned &Width) const {
  uint8_t *InSet = registerStorage(Registers, Tables.machine(), Dwarf, Width);
  if (InSet && Dwarf < MaxDwarfRegister && SavedAt[Dwarf]) {
    // A save slot holds the 8 bytes a callee saved (aarch64 saves only
    // the low half of v8-v15).
    Width = 8;
    return reinterpret_cast<uint8_t *>(SavedAt[Dwarf]);
  }
  return InSet;
}

uint64_t FrameCursor::registerValue(uint16_t Dwarf) const {
  if (Dwarf == Frame.Sp)
    return Sp;
  unsigned Width;
  const uint8_t *Where = registerLocation(Dwarf, Width);
  return Where ? *reinterpret_cast<const uint64_t *>(Where) : 0;
}

void FrameCursor::enterFrame() {
  Site = Tables.siteAt(Pc);
  CfaKnown = false;
  if (!Site)
    return;
  const popcorn_frame &Layout = Tables.frame(*Site);
  if (Layout.cfa_register == Frame.Sp)
    Cfa = Sp + int64_t(Layout.cfa_offset);
  else if (Layout.cfa_register == Frame.Fp)
    Cfa = registerValue(Frame.Fp) + int64_t(Layout.cfa_offset);
  else
    return;
  CfaKnown = true;
}

StepResult FrameCursor::step() {
  if (!Site)
    return StepResult::NotACallSite;
  if (!CfaKnown)
    return StepResult::UnknownRule;
  if (atThreadBase())
    return StepResult::Base;
  const popcorn_saved_register *Saved = Tables.saved(*Site);
  uint16_t SavedCount = Tables.frame(*Site).n_saved;
  uint64_t ReturnAddress = 0;
  for (uint16_t I = 0; I < SavedCount; I++) {
    uint64_t Slot = Cfa + int64_t(Saved[I].cfa_offset);
    if (Saved[I].dwarf_register == Frame.ReturnAddress)
      ReturnAddress = *reinterpret_cast<const uint64_t *>(Slot);
    else if (Saved[I].dwarf_register < MaxDwarfRegister)
      SavedAt[Saved[I].dwarf_register] = Slot;
  }
  if (!ReturnAddress)
    return StepResult::UnknownRule;
  // The caller's stack pointer after the return is the callee's CFA, on
  // both ISAs.
  Pc = ReturnAddress;
  Sp = Cfa;
  enterFrame();
  return Site ? StepResult::Caller : StepResult::NotACallSite;
}

} // namespace popcorn
