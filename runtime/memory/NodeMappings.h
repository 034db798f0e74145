//===- NodeMappings.h - Memory a node maps and unmaps without home -*- C++ -*-===//
//
// malloc maps and unmaps groups of pages all the time (musl's mallocng
// maps a group of a size class at a time and unmaps it when its last
// block is freed).  Away from home each such call would be a round trip,
// since home places every mapping.  A remote node remembers the private
// anonymous mappings home made at its request during this trip; when the
// program unmaps one whole, the node keeps its range (inaccessible) rather
// than telling home, and hands it out again for the next mapping of the
// same size and kind.  At home the range is still mapped and still zero,
// as a new mapping would be: nothing the node writes reaches home before
// the thread does.  Before any other mapping call, and when the thread
// leaves, home unmaps the ranges still kept (Unmap messages, which the
// link delivers before whatever follows them).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_NODEMAPPINGS_H
#define POPCORN_RUNTIME_NODEMAPPINGS_H

#include <stdint.h>

namespace popcorn {

/// Home mapped [Address, +Bytes) as private anonymous memory with Prot
/// and Flags for this node's thread.
void noteNodeMapping(uint64_t Address, uint64_t Bytes, long Prot, long Flags);

/// A range this node kept for a mapping of Bytes, Prot and Flags, made
/// fresh again; 0 if it has none.
uint64_t reuseKeptRange(uint64_t Bytes, long Prot, long Flags);

/// munmap of [Address, +Bytes): true if that was a whole mapping of this
/// trip, now kept here; false if home must unmap it.
bool keepUnmappedRange(uint64_t Address, uint64_t Bytes);

/// Whether page A lies in a kept range: the program unmapped it.
bool inKeptRange(uint64_t A);

/// Home unmaps every kept range, and the node forgets its mappings that
/// overlap [Address, +Bytes) (a call is about to change them).
void settleNodeMappings(uint64_t Address, uint64_t Bytes);

/// The thread leaves: home unmaps every kept range, and the node forgets
/// them all (home may write any page from now on).
void endNodeMappings();

/// munmap of an arena range away from home, which cannot fail there: home
/// is told and does not answer.  False if the range is not the arena's.
bool unmapAtHome(uint64_t Address, uint64_t Bytes);

} // namespace popcorn

#endif
