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

/// Read-write memory in the arena with a guard page below, or 0.
uint64_t arenaMapWithGuard(uint64_t Bytes);

} // namespace popcorn

#endif
