//===- LongJump.cpp - setjmp and longjmp across moves ---------------------===//
//
// A jmp_buf holds one ISA's registers at its setjmp: a stack pointer into
// the native stack region the thread was on, a return address of that
// ISA.  After the thread moved (to another ISA, or to another region of the
// same ISA), neither means anything, but the frame that called setjmp is
// still there, at the same depth from the thread's base (a rewrite maps
// frames one to one), and its setjmp call has a record with an ID that is
// the same on every ISA.
//
// So setjmp (libc-patches, */setjmp.s) ends here and notes its caller's
// frame in the thread's table of setjmp frames (SetjmpFrames.h), at a cost
// that does not depend on the stack's depth; the jmp_buf keeps the ISA,
// the thread's generation and the entry's serial in words that no ISA's
// setjmp uses.  longjmp starts here (arch/*.S saves the registers): if the
// thread's stack was not rewritten since the setjmp, musl's own longjmp goes
// on; else the frame is found at the depth the rewrite gave its entry, on
// the current stack, and the thread resumes at this ISA's return address
// of that setjmp call, with the frame's registers as the frames above it
// would have restored them.
// Values the function keeps across the setjmp call are in its stack slots
// (RecordCallSites.cpp), as on any recorded call, so nothing else is needed.
//
// From a signal handler, no walk passes the kernel's signal frame (the
// interrupted code is at no call site).  The frame is then found where the
// thread arrived: each arrival in a process notes its frames' CFAs, and
// the frame that called setjmp before the move is still where it arrived,
// at its depth, as are its callers.  Of the registers it resumes with,
// only the frame pointer is then needed: no live value is in a register
// at a recorded call, and each frame's epilogue restores its caller's.
//
//===----------------------------------------------------------------------===//
#include "migration/LongJump.h"
#include "FrameCursor.h"
#include "migration/Thread.h"
#include "state/MigrationMetadata.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"

using namespace popcorn;

extern "C" {
int __popcorn_note_setjmp(uint64_t *Buffer);
void popcorn_longjmp_slow(uint64_t *Buffer, int Value, RegisterSet *Here);
}

namespace {

// Word 12 of __jmp_buf: free on both ISAs (aarch64 stores x19-x30 at 0-11,
// sp at 13, d8-d15 at 14-21; x86-64 uses 0-7).  ISA in the low 15 bits,
// FromSigsetjmp, and how the frame was noted: in the thread's table (word
// 26 the entry's serial), by a walk (word 26 its depth from the thread's
// base; 0 if it failed), or not at all (a thread that never moves, a stack
// no rewrite sees).  0: not noted.  Word 25: the thread's generation at the
// setjmp.  Both are in the signal-mask part of sigjmp_buf past the mask
// (sigsetjmp uses words 22-24), which every jmp_buf has.
constexpr unsigned NoteWord = 12, GenerationWord = 25, FrameWord = 26;
constexpr uint64_t FromSigsetjmp = 1 << 15, MachineBits = FromSigsetjmp - 1;
enum Noted : uint64_t { InTable = 1 << 16, ByWalk = 2 << 16, NotNoted = 3 << 16, HowBits = 3 << 16 };

// sigsetjmp (musl's */sigsetjmp.s, in the sigjmp_buf layout of
// libc-patches) calls setjmp after keeping its caller's return address in
// word 22 and the caller's %rbx / x19, which it uses, in word 24: setjmp's
// caller is then sigsetjmp, and the frame to note is sigsetjmp's caller.
// Word 23 holds the signal mask a siglongjmp restores.
constexpr unsigned SigsetjmpReturnWord = 22, SigsetjmpMaskWord = 23, SigsetjmpSavedWord = 24;
#if defined(__x86_64__)
constexpr uint16_t SigsetjmpSavedDwarf = 3; // rbx
constexpr uint16_t FramePointerDwarf = 6;   // rbp
#else
constexpr uint16_t SigsetjmpSavedDwarf = 19; // x19
constexpr uint16_t FramePointerDwarf = 29;   // x29
#endif
// Frames noted at an arrival (NodeState::Arrived); deeper stacks are not.
constexpr uint32_t MaxArrivedFrames = 1 << 16;
extern "C" __attribute__((weak)) int __sigsetjmp(uint64_t *, int);

struct BufferLayout {
  unsigned Sp, Pc;
};

BufferLayout layoutOf(uint16_t Machine) {
  return Machine == EmX86_64 ? BufferLayout{6, 7} : BufferLayout{13, 11};
}

// The registers setjmp's caller had at the return address, from the
// buffer: those a walk needs (stack, frame and callee-saved registers).
RegisterSet registersOf(const uint64_t *Buffer) {
  RegisterSet R = {};
  R.Machine = sys::Here;
  BufferLayout L = layoutOf(sys::Here);
  R.Sp = Buffer[L.Sp];
  R.Pc = Buffer[L.Pc];
#if defined(__x86_64__)
  const unsigned Dwarf[6] = {3, 6, 12, 13, 14, 15}; // rbx rbp r12-r15
  for (unsigned I = 0; I < 6; I++)
    R.Gpr[Dwarf[I]] = Buffer[I];
#else
  for (unsigned I = 0; I < 12; I++) // x19-x30
    R.Gpr[19 + I] = Buffer[I];
  for (unsigned I = 0; I < 8; I++)  // d8-d15
    __builtin_memcpy(R.Vector[8 + I], &Buffer[14 + I], 8);
#endif
  return R;
}

// Whether setjmp was called by sigsetjmp, from the return address it saved.
bool calledBySigsetjmp(const uint64_t *Buffer) {
  uint64_t Start = uint64_t(&__sigsetjmp), Pc = Buffer[layoutOf(sys::Here).Pc];
  return Start && Pc > Start && Pc - Start < 64;
}

// The registers of the frame that called setjmp or sigsetjmp, at its
// return address.
RegisterSet callerRegisters(const uint64_t *Buffer, bool Sigsetjmp) {
  RegisterSet R = registersOf(Buffer);
  if (Sigsetjmp) {
    R.Pc = Buffer[SigsetjmpReturnWord];
    R.Gpr[SigsetjmpSavedDwarf] = Buffer[SigsetjmpSavedWord];
  }
  return R;
}

// Frames from the cursor's to the thread's base, the cursor's included; 0
// if the walk fails.
uint64_t depthFrom(FrameCursor Cursor) {
  for (uint64_t Depth = 1;; Depth++) {
    switch (Cursor.step()) {
    case StepResult::Caller:
      continue;
    case StepResult::Base:
      return Depth;
    default:
      return 0;
    }
  }
}

[[noreturn]] void cannotJump(const char *Why) {
  Line() << "popcorn: longjmp after the thread moved: " << Why;
  sys::call6(sys::Kill, sys::call6(sys::Getpid, 0), 6 /* SIGABRT */);
  sys::exitGroup(134);
}

// The native stack region the thread runs on and its other region, where
// a buffer set before a move points (empty if that is another ISA's);
// false if the thread never moved.
bool stackRegions(StackRegion &Current, StackRegion &Other) {
  NodeState &N = node();
  if (N.Remote) {
    Current = N.Away;
    Other = N.HomeMachine == sys::Here ? N.Home : StackRegion{0, 0};
    return true;
  }
  ThreadState *T = currentThread();
  if (!T || !T->RegionsReady)
    return false;
  Current = T->Regions[T->Current];
  Other = T->Regions[1 - T->Current];
  return true;
}

bool contains(const StackRegion &R, uint64_t A) { return A >= R.Low && A < R.High; }

// Resumes the thread with Out, in the frame that called setjmp, which
// returns Value there.
[[noreturn]] void jumpInto(RegisterSet &Out, const uint64_t *Buffer, int Value, bool Sigsetjmp) {
  Out.Gpr[0] = uint64_t(Value ? Value : 1); // rax, x0
  // The thread resumes in sigsetjmp's caller, not in sigsetjmp, which
  // would restore the signal mask it saved: done here.
  if (Sigsetjmp)
    sys::call6(sys::RtSigprocmask, 2 /* SIG_SETMASK */, long(&Buffer[SigsetjmpMaskWord]), 0, 8);
  popcorn_resume(&Out);
}

// A longjmp from a signal handler, whose walk cannot reach the base, to a
// buffer of this ISA set on the thread's other stack region, before a
// move.  A rewrite for the same ISA lays the frames out from the region's
// top with the same sizes, so each frame is at the same distance from the
// top in both regions: the buffer's stack addresses move by the regions'
// difference, and a walk from the moved frame must reach the base in
// Depth frames.  Null if the buffer is usable now, else why not.
const char *moveBufferToCurrentStack(uint64_t *Buffer, bool Sigsetjmp, uint64_t Depth,
                                     const IsaTables &Tables) {
  StackRegion Current, Other;
  BufferLayout L = layoutOf(sys::Here);
  if (!stackRegions(Current, Other) || contains(Current, Buffer[L.Sp]))
    return nullptr;
  if (!contains(Other, Buffer[L.Sp]))
    return "from a signal handler, to a setjmp whose stack is neither region of the thread";
  uint64_t Delta = Current.High - Other.High;
  for (unsigned I = 0; I < NoteWord; I++) // the saved registers and sp
    if (I != L.Pc && contains(Other, Buffer[I]))
      Buffer[I] += Delta;
  const unsigned Beyond[] = {L.Sp, SigsetjmpSavedWord};
  for (unsigned I : Beyond)
    if (I > NoteWord && contains(Other, Buffer[I]))
      Buffer[I] += Delta;
  RegisterSet Moved = callerRegisters(Buffer, Sigsetjmp);
  if (depthFrom(FrameCursor(Tables, Moved)) != Depth)
    return "from a signal handler: the frame that called setjmp is not found after the move";
  return nullptr;
}

// The registers to resume with in the frame that called setjmp at its
// call SetjmpHere, found Depth frames up from the base among the frames
// noted at the thread's arrival (Out holds the handler's registers); false
// if it is not there.  The frame pointer is where the nearest frame from
// there down that saved one keeps its caller's: a frame pointer points at
// its own frame record.
bool arrivedFrameRegisters(const IsaTables &Tables, const popcorn_call_site &SetjmpHere,
                           uint64_t Depth, RegisterSet &Out) {
  NodeState &N = node();
  if (!Depth || Depth > N.ArrivedCount)
    return false;
  uint32_t Frame = uint32_t(N.ArrivedCount - Depth);
  const popcorn_call_site *Site = N.Arrived[Frame].Site;
  if (!Site || Tables.frame(*Site).function != Tables.frame(SetjmpHere).function)
    return false;
  Out.Sp = N.Arrived[Frame].Cfa - Tables.frame(SetjmpHere).frame_size;
  Out.Pc = SetjmpHere.return_address;
  for (uint32_t I = Frame; I < N.ArrivedCount; I++) {
    const popcorn_call_site &S = I == Frame ? SetjmpHere : *N.Arrived[I].Site;
    const popcorn_saved_register *Saved = Tables.saved(S);
    for (uint16_t J = 0; J < Tables.frame(S).n_saved; J++)
      if (Saved[J].dwarf_register == FramePointerDwarf) {
        Out.Gpr[FramePointerDwarf] = N.Arrived[I].Cfa + int64_t(Saved[J].cfa_offset);
        return true;
      }
  }
  return true;
}

// The calling thread's setjmp frames (any thread may move), or null if
// there is no memory for its state.
SetjmpFrames *threadSetjmpFrames() {
  NodeState &N = node();
  if (N.Remote)
    return &N.Setjmps;
  ThreadState *T = currentThread();
  return T ? &T->Setjmps : nullptr;
}

// Rewrites of the calling thread's stack so far.
uint64_t threadGeneration() {
  NodeState &N = node();
  if (N.Remote)
    return N.Setjmps.Generation;
  ThreadState *T = existingThread();
  return T ? T->Setjmps.Generation : 0;
}

// Whether Sp is on the stack a rewrite moves.  A setjmp on another stack
// (a signal handler's alternate stack, a coroutine's) is in no frame a
// rewrite meets, and must not drop the thread's own entries, which may be
// above it.
bool onRewrittenStack(uint64_t Sp) {
  StackRegion Current, Other;
  return !stackRegions(Current, Other) || contains(Current, Sp);
}

// The depth the last rewrite gave the frame of entry Serial; 0 if gone.
uint64_t setjmpFrameDepth(uint64_t Serial) {
  SetjmpFrames *Table = threadSetjmpFrames();
  const SetjmpFrame *Entry = Table ? Table->find(Serial) : nullptr;
  return Entry ? Entry->Depth : 0;
}

} // namespace

void popcorn::noteArrivedFrames(const RegisterSet &Registers) {
  NodeState &N = node();
  N.ArrivedCount = 0;
  IsaTables Tables(migrationMetadata(), sys::Here);
  if (!Tables.valid())
    return;
  if (!N.Arrived)
    N.Arrived = reinterpret_cast<ArrivedFrame *>(
        sys::mapPrivate(MaxArrivedFrames * sizeof(ArrivedFrame)));
  if (!N.Arrived)
    return;
  RegisterSet R = Registers;
  FrameCursor Cursor(Tables, R);
  for (uint32_t Count = 0; Count < MaxArrivedFrames;) {
    N.Arrived[Count++] = {Cursor.cfa(), Cursor.site()};
    switch (Cursor.step()) {
    case StepResult::Caller:
      continue;
    case StepResult::Base:
      N.ArrivedCount = Count;
      return;
    default:
      return;
    }
  }
}

int __popcorn_note_setjmp(uint64_t *Buffer) {
  bool Sigsetjmp = calledBySigsetjmp(Buffer);
  uint64_t Sp = Buffer[layoutOf(sys::Here).Sp];
  uint64_t Machine = (Sigsetjmp ? FromSigsetjmp : 0) | sys::Here;
  SetjmpFrames *Table = threadSetjmpFrames();
  Buffer[GenerationWord] = Table ? Table->Generation : 0;
  if (!Table || !onRewrittenStack(Sp)) {
    Buffer[NoteWord] = Machine | NotNoted;
    return 0;
  }
  uint64_t Pc = Sigsetjmp ? Buffer[SigsetjmpReturnWord] : Buffer[layoutOf(sys::Here).Pc];
  if (uint64_t Serial = Table->note(Sp, Pc)) {
    Buffer[NoteWord] = Machine | InTable;
    Buffer[FrameWord] = Serial;
    return 0;
  }
  // Nested deeper than the table holds: the depth, by a walk.
  IsaTables Tables(migrationMetadata(), sys::Here);
  RegisterSet R = callerRegisters(Buffer, Sigsetjmp);
  Buffer[NoteWord] = Machine | ByWalk;
  Buffer[FrameWord] = Tables.valid() ? depthFrom(FrameCursor(Tables, R)) : 0;
  return 0;
}

void popcorn_longjmp_slow(uint64_t *Buffer, int Value, RegisterSet *Here) {
  uint64_t Note = Buffer[NoteWord];
  uint16_t Machine = uint16_t(Note & MachineBits);
  if (!Machine || Buffer[GenerationWord] == threadGeneration())
    return; // no rewrite since the setjmp: musl's longjmp as it is
  bool Sigsetjmp = Note & FromSigsetjmp;
  uint64_t Depth = 0;
  switch (Note & HowBits) {
  case InTable:
    Depth = setjmpFrameDepth(Buffer[FrameWord]);
    if (!Depth)
      cannotJump("the frame that called setjmp has returned");
    break;
  case ByWalk:
    Depth = Buffer[FrameWord];
    break;
  }
  if (!Depth)
    return; // noted where no rewrite reaches, or the walk failed: musl's longjmp

  IsaTables Tables(migrationMetadata(), sys::Here), Then(migrationMetadata(), Machine);
  if (!Tables.valid() || !Then.valid())
    cannotJump("no migration metadata");
  const popcorn_call_site *SetjmpThen =
      Then.siteAt(Sigsetjmp ? Buffer[SigsetjmpReturnWord] : Buffer[layoutOf(Machine).Pc]);
  const popcorn_call_site *SetjmpHere = SetjmpThen ? Tables.siteWithId(SetjmpThen->id) : nullptr;
  if (!SetjmpHere)
    cannotJump("the setjmp call has no record");

  // The frame that called setjmp: Depth frames up from the base.
  RegisterSet Current = *Here;
  uint64_t Total = depthFrom(FrameCursor(Tables, Current));
  // A walk from here that cannot reach the base passes through a frame
  // with no record: a signal handler's, above the kernel's signal frame
  // (no move crosses one).  A buffer of this ISA is then taken as musl
  // takes it, on the stack the thread now runs on; one of another ISA
  // leads to a frame noted at the thread's arrival.
  RegisterSet Out = *Here;
  if (!Total) {
    if (Machine == sys::Here) {
      if (const char *Why = moveBufferToCurrentStack(Buffer, Sigsetjmp, Depth, Tables))
        cannotJump(Why);
      return;
    }
    if (!arrivedFrameRegisters(Tables, *SetjmpHere, Depth, Out))
      cannotJump("from a signal handler: the frame that called setjmp is not where the thread "
                 "arrived");
    jumpInto(Out, Buffer, Value, Sigsetjmp);
  }
  if (Total < Depth)
    cannotJump("the frame that called setjmp has returned");
  FrameCursor Cursor(Tables, Current);
  for (uint64_t I = 0; I < Total - Depth; I++)
    Cursor.step();
  if (!Cursor.site() ||
      Tables.frame(*Cursor.site()).function != Tables.frame(*SetjmpHere).function)
    cannotJump("the frame that called setjmp has returned");
  if (Machine == sys::Here && Cursor.sp() == Buffer[layoutOf(Machine).Sp])
    return; // the frame is where the buffer says: musl's longjmp

  for (uint16_t Dwarf = 0; Dwarf < MaxDwarfRegister; Dwarf++) {
    unsigned FromWidth, ToWidth;
    uint8_t *From = Cursor.registerLocation(Dwarf, FromWidth);
    uint8_t *To = From ? registerStorage(Out, sys::Here, Dwarf, ToWidth) : nullptr;
    if (To)
      __builtin_memcpy(To, From, FromWidth < ToWidth ? FromWidth : ToWidth);
  }
  Out.Sp = Cursor.cfa() - Tables.frame(*SetjmpHere).frame_size;
  Out.Pc = SetjmpHere->return_address;
  jumpInto(Out, Buffer, Value, Sigsetjmp);
}
