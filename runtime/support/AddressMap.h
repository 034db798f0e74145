//===- AddressMap.h - Address ranges every node agrees on -------*- C++ -*-===//
//
// A thread that moves finds its memory at the same addresses on every node.
// The image's own data is already there (popcorn-ld lays it out once for
// every ISA); everything the program maps at run time (heap, object stacks,
// mmap) is placed by the home node in the arena below, which every process
// of the program reserves at start-up before anything else can land in it.
// The node-private range holds each process's own runtime state: never
// shared, never paged.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_ADDRESSMAP_H
#define POPCORN_RUNTIME_ADDRESSMAP_H

#include <stdint.h>

namespace popcorn {

inline constexpr uint64_t PageBytes = 4096;

// Far from where Linux and qemu-user place mappings of their own (just
// above the image, 0x55..., 0x7f...).
inline constexpr uint64_t ArenaBase = 0x100000000000;
// qemu-user keeps flags per reserved page: its start-up time grows with
// this (0.15 s for 4 GiB, 10 s for 256 GiB).
inline constexpr uint64_t ArenaBytes = uint64_t(1) << 32;

inline bool inArena(uint64_t A, uint64_t Bytes) {
  return A >= ArenaBase && A + Bytes <= ArenaBase + ArenaBytes && A + Bytes >= A;
}

inline constexpr uint64_t NodePrivateBase = 0x0f0000000000;

struct AddressRange {
  uint64_t Low, High;
  bool contains(uint64_t A) const { return A >= Low && A < High; }
  bool overlaps(uint64_t L, uint64_t H) const { return Low < H && High > L; }
};

inline uint64_t pageDown(uint64_t A) { return A & ~(PageBytes - 1); }
inline uint64_t pageUp(uint64_t A) { return (A + PageBytes - 1) & ~(PageBytes - 1); }

} // namespace popcorn

#endif
