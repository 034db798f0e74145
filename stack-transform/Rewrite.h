//===- Rewrite.h - A thread's native stack, rewritten for another ISA -*- C++ -*-===//
//
// docs/architecture.md.  Input: a thread stopped at a migration point (its
// register set and native stack, on ISA A) and the program's migration
// metadata.  Output: the native stack and register set that continue the
// same computation on ISA B (or on A, in another region), written into a
// destination region whose top holds the thread's base frame.
//
// Frames correspond one to one by call-site ID (one IR for every ISA).  Each
// destination frame is laid out below its caller's; every live value goes
// where the destination's record says: a register (in the final register
// set, or in the save slot of the nearest more recent frame that saves that
// register), or a stack slot; return addresses and frame pointers likewise.
// Stack objects need nothing: they are on the object stack, the same memory
// on every ISA.
//
// Freestanding (no libc, no allocation, no exceptions): it runs on the
// runtime's stack in the middle of a migration.  The caller gives the
// scratch space for per-frame bookkeeping.  The source is only read, so a
// refusal leaves the thread as it was.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_STACKTRANSFORM_REWRITE_H
#define POPCORN_STACKTRANSFORM_REWRITE_H

#include "MetadataView.h"
#include "RegisterSet.h"

namespace popcorn {

enum class RewriteError : uint8_t {
  None,
  NoMetadata,        // the program has no tables for one of the ISAs
  NotACallSite,      // a return address without a record (a frame of code
                     // that cannot migrate)
  SignalFrame,       // a signal handler's frame: the kernel's frame below it
                     // holds registers no record describes
  Incomplete,        // a record that is not resumable
  VaListLive,        // a frame may hold a va_list into its native frame
  NoDestinationSite, // the destination ISA has no site with that ID
  ShapeMismatch,     // the two records disagree on the values
  UnknownFrameRule,  // a frame popcorn cannot follow or lay out
  TooDeep,           // more frames than the scratch space holds
  RegionTooSmall,    // the destination region cannot hold the frames
  SlotOutsideRegion, // a destination slot lies outside the region
};

/// One line for a user: "a frame has no call-site record", ...
const char *describe(RewriteError E);

// A destination's region: frames go from High down; the base frame's CFA is
// High.  At least Reserve bytes must stay free below the innermost frame.
struct StackRegion {
  uint64_t Low, High;
};

// Per-frame bookkeeping, in the caller's scratch space.
struct FramePair {
  const popcorn_call_site *Source, *Destination;
  uint64_t SourceCfa, SourceSp;
  uint64_t DestinationCfa, DestinationSp;
};

struct RewriteRequest {
  const popcorn_metadata *Metadata;
  RegisterSet *Source;         // Source->Machine says its ISA
  uint16_t DestinationMachine;
  uint64_t DestinationThreadPointer;
  StackRegion Destination;
  FramePair *Scratch;
  uint32_t MaxFrames;
  // Destination bytes are written at their address plus this: a buffer
  // standing in for a region of another process.
  int64_t WriteBias = 0;
  // The return address of a signal handler's frame (libc's signal return
  // trampoline, at one address on every ISA); 0 if unknown.
  uint64_t SignalReturn = 0;
};

struct RewriteResult {
  RewriteError Error;
  uint32_t Frames;   // rewritten (or walked, until the error)
  uint64_t Pc;       // where the error was found
};

/// Writes the destination frames into Request.Destination and the registers
/// the thread continues with into Out.  Nothing else is written.
RewriteResult rewriteStack(const RewriteRequest &Request, RegisterSet &Out);

/// The bytes free below the innermost frame that a rewrite demands.
inline constexpr uint64_t RewriteReserve = 16 * 1024;

} // namespace popcorn

#endif
