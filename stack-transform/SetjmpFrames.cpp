//===- SetjmpFrames.cpp - The frames of a thread that called setjmp -------===//
#include "SetjmpFrames.h"
#include "Rewrite.h"

namespace popcorn {

uint64_t SetjmpFrames::note(uint64_t Sp, uint64_t Pc) {
  while (Count && Frames[Count - 1].Sp < Sp)
    Count--;
  if (Count && Frames[Count - 1].Sp == Sp) {
    // Another setjmp of the same frame (or of one that replaced a frame
    // gone at the same place): any of its setjmp calls locates it.
    Frames[Count - 1].Pc = Pc;
    return Frames[Count - 1].Serial;
  }
  if (Count == Capacity)
    return 0;
  Frames[Count++] = {Sp, Pc, ++LastSerial, 0};
  return LastSerial;
}

const SetjmpFrame *SetjmpFrames::find(uint64_t Serial) const {
  for (uint32_t I = 0; I < Count; I++)
    if (Frames[I].Serial == Serial)
      return &Frames[I];
  return nullptr;
}

namespace {
// Entry E on the destination stack, if frame Pair holds it: its setjmp
// call's twin locates it there.
bool moveEntry(SetjmpFrame &E, const IsaTables &Source, const IsaTables &Destination,
               const FramePair &Pair, uint64_t Depth) {
  const popcorn_call_site *Setjmp = Source.siteAt(E.Pc);
  if (!Setjmp || Source.frame(*Setjmp).function != Source.frame(*Pair.Source).function)
    return false;
  const popcorn_call_site *Twin = Destination.siteWithId(Setjmp->id);
  if (!Twin)
    return false;
  E.Sp = Pair.DestinationCfa - Destination.frame(*Twin).frame_size;
  E.Pc = Twin->return_address;
  E.Depth = Depth;
  return true;
}
} // namespace

void moveSetjmpFrames(SetjmpFrames &Table, const IsaTables &Source,
                      const IsaTables &Destination, const FramePair *Pairs, uint32_t Count) {
  // Both lists run in the stack's order: the entries from the outermost
  // frame, the pairs from the innermost.  Frame I spans [SourceSp, SourceCfa).
  uint32_t Kept = 0, Frame = Count;
  for (uint32_t I = 0; I < Table.Count; I++) {
    SetjmpFrame E = Table.Frames[I];
    while (Frame > 0 && Pairs[Frame - 1].SourceSp > E.Sp)
      Frame--;
    if (Frame == 0 || E.Sp >= Pairs[Frame - 1].SourceCfa)
      continue; // between frames or below the innermost: gone
    if (moveEntry(E, Source, Destination, Pairs[Frame - 1], Count - (Frame - 1)))
      Table.Frames[Kept++] = E;
  }
  Table.Count = Kept;
  Table.Generation++;
}

void moveSetjmpFrames(SetjmpFrames &Table, const RewriteRequest &Request, uint32_t Count) {
  IsaTables Source(Request.Metadata, uint16_t(Request.Source->Machine));
  IsaTables Destination(Request.Metadata, Request.DestinationMachine);
  moveSetjmpFrames(Table, Source, Destination, Request.Scratch, Count);
}

} // namespace popcorn
