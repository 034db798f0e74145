//===- FrameCursor.h - Walking a thread's frames with the metadata -*- C++ -*-===//
//
// Steps from a migration point's frame to the thread's base, one recorded
// call site at a time, and knows for the current frame where each register
// holds that frame's value: in the register set (the innermost frame, and
// registers no more recent frame saved) or in the save slot of the nearest
// more recent frame that saved it.  The rewrite reads live values through
// this; the runtime's unwinding self-check walks with it.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_STACKTRANSFORM_FRAMECURSOR_H
#define POPCORN_STACKTRANSFORM_FRAMECURSOR_H

#include "MetadataView.h"
#include "RegisterSet.h"

namespace popcorn {

enum class StepResult {
  Caller,        // moved to the caller's frame
  Base,          // this frame is the thread's base: the walk is complete
  NotACallSite,  // the return address has no record
  UnknownRule,   // the frame's CFA is on a register popcorn cannot follow
};

class FrameCursor {
public:
  /// At the innermost frame: Registers as the code at Registers.Pc sees them.
  FrameCursor(const IsaTables &Tables, RegisterSet &Registers);

  /// The current frame's call site, or null if Pc has none.
  const popcorn_call_site *site() const { return Site; }
  uint64_t pc() const { return Pc; }
  uint64_t sp() const { return Sp; }
  uint64_t cfa() const { return Cfa; }
  bool atThreadBase() const { return Tables.isThreadBase(Pc); }
  /// Did the current frame's CFA rule resolve?
  bool hasCfa() const { return CfaKnown; }

  /// Where register Dwarf holds the current frame's value, and its width.
  uint8_t *registerLocation(uint16_t Dwarf, unsigned &Width) const;
  /// The current frame's value of a general register.
  uint64_t registerValue(uint16_t Dwarf) const;

  /// Moves to the caller's frame (or says why not).
  StepResult step();

private:
  void enterFrame();

  const IsaTables &Tables;
  RegisterSet &Registers;
  FrameRegisters Frame;
  uint64_t Pc, Sp, Cfa = 0;
  bool CfaKnown = false;
  const popcorn_call_site *Site = nullptr;
  // Save slots of the registers more recent frames saved (0: in Registers).
  uint64_t SavedAt[MaxDwarfRegister] = {};
};

} // namespace popcorn

#endif
