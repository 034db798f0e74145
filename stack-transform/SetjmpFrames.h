//===- SetjmpFrames.h - The frames of a thread that called setjmp -*- C++ -*-===//
//
// A longjmp after a rewrite must find the frame of its setjmp on the new
// stack.  Frames correspond one to one across a rewrite, so a frame's depth
// from the thread's base names it on every stack; but computing a depth at
// setjmp means walking to the base, and a program that calls setjmp often
// (an interpreter's protected calls) would pay for its stack's depth at
// every one.
//
// So setjmp only notes its frame here: its stack pointer, on a stack of
// the frames that called setjmp, outermost first.  A frame that calls
// setjmp is the innermost frame alive, so every entry below its stack
// pointer is of a frame that has returned: dropping them keeps the stack
// ordered at a constant amortized cost.  A rewrite, which walks every
// frame anyway, gives each entry its frame's depth and its stack pointer
// on the new stack, and drops the entries of frames that are gone.  A
// jmp_buf names its entry by a serial number, which outlives any entry's
// place in the table; the generation (rewrites of the thread so far) tells
// a longjmp whether there was a rewrite since its setjmp at all: if not,
// libc's longjmp is right as it is.
//
// Freestanding: it travels with the thread in the migration messages and
// is rewritten on the runtime's stack.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_STACKTRANSFORM_SETJMPFRAMES_H
#define POPCORN_STACKTRANSFORM_SETJMPFRAMES_H

#include "MetadataView.h"

namespace popcorn {

struct FramePair;
struct RewriteRequest;

struct SetjmpFrame {
  uint64_t Sp;     // the frame's stack pointer at its setjmp call
  uint64_t Pc;     // the return address of that call
  uint64_t Serial; // what the jmp_bufs filled there name it by
  uint64_t Depth;  // frames from the thread's base, its own included; set by a rewrite
};

struct SetjmpFrames {
  // Deeper nesting falls back to a walk at setjmp (LongJump.cpp).
  static constexpr uint32_t Capacity = 64;

  uint64_t Generation; // rewrites of the thread resumed so far
  uint64_t LastSerial;
  uint32_t Count;
  SetjmpFrame Frames[Capacity];

  /// The serial of the entry of the frame whose stack pointer at a setjmp
  /// call returning to Pc is Sp (made if new), or 0 if the table is full.
  uint64_t note(uint64_t Sp, uint64_t Pc);

  /// The entry named Serial, or null if its frame is gone.
  const SetjmpFrame *find(uint64_t Serial) const;
};

/// After a rewrite of Count frames (Pairs, innermost first, as rewriteStack
/// left them) from Source's ISA to Destination's: each entry's frame moves
/// to its destination frame, or is dropped if no frame holds it.
void moveSetjmpFrames(SetjmpFrames &Table, const IsaTables &Source,
                      const IsaTables &Destination, const FramePair *Pairs, uint32_t Count);

/// The same after rewriteStack(Request) rewrote Count frames.
void moveSetjmpFrames(SetjmpFrames &Table, const RewriteRequest &Request, uint32_t Count);

} // namespace popcorn

#endif
