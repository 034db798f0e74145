//===- AddressSpace.h - The home node decides every mapping -----*- C++ -*-===//
//
// libc's mapping calls at home, and a remote node's forwarded ones, place
// anonymous and file mappings in the arena (AddressMap.h), so a page of the
// program has one address on every node and a remote node can reserve the
// whole arena before anything of its own lands there.  Unmapped arena
// ranges go back to inaccessible reserved memory, never to the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_ADDRESSSPACE_H
#define POPCORN_RUNTIME_ADDRESSSPACE_H

#include <stdint.h>

namespace popcorn {

/// Reserves the arena in this process; false if its range is taken.
bool reserveArena();

long homeMmap(long Address, long Bytes, long Prot, long Flags, long Fd, long Offset);
long homeMunmap(long Address, long Bytes);
long homeMremap(long Address, long OldBytes, long NewBytes, long Flags, long NewAddress);

/// Home: system call Number with its first four arguments is about to run
/// here; one that may make a mapped page unreadable or read-only is counted
/// (NodeState.h), and the nodes' copies of the pages it unmaps, replaces,
/// moves, protects or discards are stale (RetainedPages.h).
void noteMappingCall(long Number, long A, long B, long C, long D);

/// The unmapped gap below a stack from arenaMapStack: the kernel's own
/// (stack_guard_gap, 256 pages).
inline constexpr uint64_t StackGapBytes = 1 << 20;

/// Read-write memory in the arena for the main thread's stack away from
/// home, or 0.  Below it the arena range is unmapped, not reserved: in
/// /proc/self/maps (home's, which a node's open reads) it then looks like
/// the stack the kernel gave the thread, a mapping with a gap below.
/// Programs tell a stack overflow from another fault by that gap (gnulib's
/// c-stack: the fault address nearer to the stack than to the mapping
/// below); a guard mapping right below makes every overflow a "program
/// error".  Nothing else lands in the gap: the kernel places mappings
/// top-down from far above the arena.
uint64_t arenaMapStack(uint64_t Bytes);

} // namespace popcorn

#endif
