//===- Rewrite.cpp - A thread's native stack, rewritten for another ISA ---===//
//
// Three passes over the frames, each linear:
//   1. walk the source from the migration point to the thread's base and
//      pair every frame with the destination's site of the same ID;
//   2. lay out the destination frames from the base (at the region's top)
//      inwards: a frame's CFA is its caller's stack pointer;
//   3. walk the source again and place every value, the return addresses
//      and the frame pointers, tracking on both sides which save slot holds
//      each register for the current frame.
//
//===----------------------------------------------------------------------===//
#include "Rewrite.h"
#include "FrameCursor.h"

namespace popcorn {

const char *describe(RewriteError E) {
  switch (E) {
  case RewriteError::None: return "no error";
  case RewriteError::NoMetadata: return "the program has no migration metadata for one of the ISAs";
  case RewriteError::NotACallSite: return "a frame on the stack is not at a recorded call site (code that cannot migrate)";
  case RewriteError::SignalFrame: return "a signal handler is running: its frame and the kernel's signal frame are on the stack";
  case RewriteError::Incomplete: return "a frame's call site cannot be resumed after a rewrite";
  case RewriteError::VaListLive: return "a frame may hold a va_list, which points into the native stack";
  case RewriteError::NoDestinationSite: return "the destination ISA has no call site with the same ID";
  case RewriteError::ShapeMismatch: return "the two ISAs' records of a call site disagree";
  case RewriteError::UnknownFrameRule: return "a frame has a layout popcorn cannot follow";
  case RewriteError::TooDeep: return "the stack is deeper than the rewrite's scratch space";
  case RewriteError::RegionTooSmall: return "the destination stack region is too small";
  case RewriteError::SlotOutsideRegion: return "a value's slot on the destination lies outside its stack region";
  }
  return "unknown error";
}

namespace {
// Where each register's value for the current destination frame goes: the
// final register set, or the save slot of the nearest more recent frame
// that saves it.
// The destination's memory: where Bytes at Address are written, or null
// (and Outside set) if they are not all in its region.  Slots and save
// slots come from the destination's records, which must agree with its
// frame layout; a rewrite touches nothing outside the region whatever they
// say.
struct DestinationMemory {
  const RewriteRequest &Request;
  bool Outside = false;

  uint8_t *at(uint64_t Address, uint64_t Bytes) {
    const StackRegion &R = Request.Destination;
    if (Address < R.Low || Address > R.High || Bytes > R.High - Address) {
      Outside = true;
      return nullptr;
    }
    return reinterpret_cast<uint8_t *>(Address + Request.WriteBias);
  }
};

struct DestinationRegisters {
  RegisterSet &Out;
  uint16_t Machine;
  DestinationMemory &Memory;
  uint64_t SavedAt[MaxDwarfRegister] = {};

  uint8_t *location(uint16_t Dwarf, unsigned &Width) {
    uint8_t *InSet = registerStorage(Out, Machine, Dwarf, Width);
    if (InSet && SavedAt[Dwarf]) {
      Width = 8;
      return Memory.at(SavedAt[Dwarf], 8);
    }
    return InSet;
  }

  void frameSaves(const IsaTables &Tables, const popcorn_call_site &Site, uint64_t Cfa) {
    const popcorn_saved_register *Saved = Tables.saved(Site);
    uint16_t SavedCount = Tables.frame(Site).n_saved;
    for (uint16_t I = 0; I < SavedCount; I++)
      if (Saved[I].dwarf_register < MaxDwarfRegister)
        SavedAt[Saved[I].dwarf_register] = Cfa + int64_t(Saved[I].cfa_offset);
  }
};

void copyBytes(uint8_t *To, const uint8_t *From, uint64_t N) {
  for (uint64_t I = 0; I < N; I++)
    To[I] = From[I];
}

// Value bytes into a destination of Width bytes, zero-extended: x86-64
// code may rely on a 32-bit value's upper half being zero.
void place(uint8_t *To, unsigned Width, const uint8_t *Value, unsigned Size) {
  for (unsigned I = 0; I < Width; I++)
    To[I] = I < Size ? Value[I] : 0;
}

struct FrameView {
  const IsaTables &Tables;
  const popcorn_call_site &Site;
  uint64_t Cfa, Sp;
  const FrameRegisters &Regs;
  DestinationMemory &Memory;

  uint8_t *written(uint64_t Address, uint64_t Bytes) const { return Memory.at(Address, Bytes); }

  // The destination frame's value of a register that locates its slots.
  bool baseRegister(uint16_t Dwarf, uint64_t &Value) const {
    if (Dwarf == Regs.Sp) {
      Value = Sp;
      return true;
    }
    const popcorn_frame &Layout = Tables.frame(Site);
    if (Dwarf == Regs.Fp && Layout.cfa_register == Regs.Fp) {
      Value = Cfa - int64_t(Layout.cfa_offset);
      return true;
    }
    return false;
  }
};
} // namespace

// Pass 3 for one value: from the source frame at Cursor to the destination
// frame Dst.
static bool moveValue(const popcorn_value &From, const popcorn_value &To, FrameCursor &Cursor,
                      const FrameView &Dst, DestinationRegisters &DstRegs) {
  uint8_t Constant[8];
  const uint8_t *Value = nullptr;
  unsigned Width;
  switch (From.location) {
  case POPCORN_IN_REGISTER:
    Value = Cursor.registerLocation(From.dwarf_register, Width);
    break;
  case POPCORN_IN_MEMORY:
  case POPCORN_AT_ADDRESS:
    Value = reinterpret_cast<const uint8_t *>(Cursor.registerValue(From.dwarf_register) +
                                              int64_t(From.offset));
    break;
  case POPCORN_CONSTANT: {
    int64_t C = From.offset;
    copyBytes(Constant, reinterpret_cast<const uint8_t *>(&C), 8);
    Value = Constant;
    break;
  }
  }
  if (!Value)
    return false;

  uint64_t Base;
  switch (To.location) {
  case POPCORN_IN_REGISTER: {
    uint8_t *Where = DstRegs.location(To.dwarf_register, Width);
    if (!Where)
      return false;
    place(Where, Width, Value, To.size);
    return true;
  }
  case POPCORN_IN_MEMORY: {
    unsigned Bytes = To.location_size > To.size ? To.location_size : To.size;
    uint8_t *Where;
    if (!Dst.baseRegister(To.dwarf_register, Base) ||
        !(Where = Dst.written(Base + int64_t(To.offset), Bytes)))
      return false;
    place(Where, Bytes, Value, To.size);
    return true;
  }
  case POPCORN_AT_ADDRESS: {
    // A slot a crowded call's values cross in: its contents move.
    uint32_t Bytes = From.alloca_size < To.alloca_size ? From.alloca_size : To.alloca_size;
    uint8_t *Where;
    if (From.location != POPCORN_AT_ADDRESS || !Dst.baseRegister(To.dwarf_register, Base) ||
        !(Where = Dst.written(Base + int64_t(To.offset), Bytes)))
      return false;
    copyBytes(Where, Value, Bytes);
    return true;
  }
  case POPCORN_CONSTANT:
    return true; // the destination's code knows it
  }
  return false;
}

static bool sameShape(const IsaTables &A, const popcorn_call_site &SA, const IsaTables &B,
                      const popcorn_call_site &SB) {
  if (SA.n_values != SB.n_values)
    return false;
  for (uint16_t I = 0; I < SA.n_values; I++) {
    const popcorn_value &VA = A.value(SA, I), &VB = B.value(SB, I);
    if (VA.kind != VB.kind || VA.size != VB.size || VA.size > 16)
      return false;
  }
  return true;
}

RewriteResult rewriteStack(const RewriteRequest &Request, RegisterSet &Out) {
  IsaTables Source(Request.Metadata, uint16_t(Request.Source->Machine));
  IsaTables Destination(Request.Metadata, Request.DestinationMachine);
  if (!Source.valid() || !Destination.valid())
    return {RewriteError::NoMetadata, 0, Request.Source->Pc};

  // 1. Pair the frames.
  uint32_t N = 0;
  {
    FrameCursor Cursor(Source, *Request.Source);
    for (;;) {
      const popcorn_call_site *Site = Cursor.site();
      if (!Site)
        return {RewriteError::NotACallSite, N, Cursor.pc()};
      if (!(Site->flags & POPCORN_SITE_COMPLETE))
        return {RewriteError::Incomplete, N, Cursor.pc()};
      if (Site->flags & POPCORN_SITE_VA_LIST)
        return {RewriteError::VaListLive, N, Cursor.pc()};
      const popcorn_call_site *Twin = Destination.siteWithId(Site->id);
      if (!Twin)
        return {RewriteError::NoDestinationSite, N, Cursor.pc()};
      if (!(Twin->flags & POPCORN_SITE_COMPLETE) || !sameShape(Source, *Site, Destination, *Twin))
        return {RewriteError::ShapeMismatch, N, Cursor.pc()};
      if (N == Request.MaxFrames)
        return {RewriteError::TooDeep, N, Cursor.pc()};
      Request.Scratch[N++] = {Site, Twin, Cursor.cfa(), Cursor.sp(), 0, 0};
      StepResult Step = Cursor.step();
      if (Step == StepResult::Base)
        break;
      if (Step == StepResult::NotACallSite)
        return {Request.SignalReturn && Cursor.pc() == Request.SignalReturn
                    ? RewriteError::SignalFrame
                    : RewriteError::NotACallSite,
                N, Cursor.pc()};
      if (Step == StepResult::UnknownRule)
        return {RewriteError::UnknownFrameRule, N, Cursor.pc()};
    }
  }

  // 2. Lay out the destination, base frame first.
  const FrameRegisters &DstRegs = frameRegisters(Request.DestinationMachine);
  uint64_t Cfa = Request.Destination.High;
  for (uint32_t I = N; I-- > 0;) {
    FramePair &F = Request.Scratch[I];
    const popcorn_frame &Layout = Destination.frame(*F.Destination);
    uint16_t Rule = Layout.cfa_register;
    if (Rule != DstRegs.Sp && Rule != DstRegs.Fp)
      return {RewriteError::UnknownFrameRule, N, F.Destination->return_address};
    F.DestinationCfa = Cfa;
    F.DestinationSp = Cfa - Layout.frame_size;
    Cfa = F.DestinationSp;
    if (Cfa < Request.Destination.Low + RewriteReserve || Cfa > Request.Destination.High)
      return {RewriteError::RegionTooSmall, N, F.Destination->return_address};
  }

  // 3. Move the values.
  for (uint64_t &G : Out.Gpr)
    G = 0;
  for (auto &V : Out.Vector)
    for (uint8_t &B : V)
      B = 0;
  Out.Machine = Request.DestinationMachine;
  Out.ThreadPointer = Request.DestinationThreadPointer;
  Out.Sp = Request.Scratch[0].DestinationSp;
  Out.Pc = Request.Scratch[0].Destination->return_address;

  FrameCursor Cursor(Source, *Request.Source);
  DestinationMemory Memory{Request};
  DestinationRegisters Places{Out, Request.DestinationMachine, Memory};
  for (uint32_t I = 0; I < N; I++) {
    const FramePair &F = Request.Scratch[I];
    FrameView Dst{Destination, *F.Destination, F.DestinationCfa, F.DestinationSp, DstRegs,
                  Memory};
    // A longjmp may return to a setjmp of this function: the values it
    // kept across that call are in that site's slots, still there on the
    // source (as for a longjmp without a move), so they move too.  First:
    // where slots are shared, the current site's values win.
    bool Moved = true;
    Source.forEachReturnsTwiceSite(*F.Source, [&](const popcorn_call_site &Setjmp) {
      const popcorn_call_site *Twin = Destination.siteWithId(Setjmp.id);
      if (!Twin || !sameShape(Source, Setjmp, Destination, *Twin)) {
        Moved = false;
        return;
      }
      for (uint16_t V = 0; V < Setjmp.n_values; V++) {
        const popcorn_value &From = Source.value(Setjmp, V), &To = Destination.value(*Twin, V);
        if (From.location != POPCORN_IN_REGISTER && To.location != POPCORN_IN_REGISTER)
          Moved = moveValue(From, To, Cursor, Dst, Places) && Moved;
      }
    });
    if (!Moved)
      return {Memory.Outside ? RewriteError::SlotOutsideRegion : RewriteError::ShapeMismatch, N,
              Cursor.pc()};
    for (uint16_t V = 0; V < F.Source->n_values; V++)
      if (!moveValue(Source.value(*F.Source, V), Destination.value(*F.Destination, V), Cursor,
                     Dst, Places))
        return {Memory.Outside ? RewriteError::SlotOutsideRegion : RewriteError::UnknownFrameRule,
                N, Cursor.pc()};

    unsigned Width;
    uint64_t Fp;
    if (Dst.baseRegister(DstRegs.Fp, Fp))
      if (uint8_t *Where = Places.location(DstRegs.Fp, Width))
        place(Where, Width, reinterpret_cast<const uint8_t *>(&Fp), 8);
    // This frame's return address, where the frame it called keeps it.
    uint64_t Ra = F.Destination->return_address;
    if (uint8_t *Where = Places.location(DstRegs.ReturnAddress, Width))
      place(Where, Width, reinterpret_cast<const uint8_t *>(&Ra), 8);

    if (Memory.Outside)
      return {RewriteError::SlotOutsideRegion, N, F.Destination->return_address};
    Places.frameSaves(Destination, *F.Destination, F.DestinationCfa);
    if (I + 1 < N && Cursor.step() != StepResult::Caller)
      return {RewriteError::UnknownFrameRule, N, Cursor.pc()};
  }
  return {RewriteError::None, N, 0};
}

} // namespace popcorn
