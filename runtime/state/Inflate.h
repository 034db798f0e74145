//===- Inflate.h - Decompress a zlib stream, freestanding -------*- C++ -*-===//
//
// popcorn-ld stores every other ISA's image compressed (popcorn/StoredImage.h):
// the image is read only when a node of that ISA starts, and compressed it
// takes about half the bytes on disk.  The runtime cannot link zlib (it is
// freestanding, and runs before libc is ready on a node), so it carries
// this decoder of RFC 1950 (zlib) and RFC 1951 (deflate): no heap, no libc,
// a few kilobytes of stack.
//
// The decoder favours being obviously correct over speed: codes are decoded
// against canonical Huffman tables, as the RFC describes them, those of up
// to 9 bits (nearly all) by one look-up of the next 9 bits, longer ones a
// bit at a time.  It inflates a megabyte of code in a few milliseconds,
// once per node start, and the migration metadata (MigrationMetadata.h)
// at a process's first migration.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_INFLATE_H
#define POPCORN_RUNTIME_INFLATE_H

#include <stddef.h>
#include <stdint.h>

namespace popcorn {

/// Decompresses the zlib stream In[0, InSize) into Out[0, OutSize).  True
/// only if the stream is well formed, its checksum matches and it holds
/// exactly OutSize bytes: a truncated or corrupt stream never reads past
/// In + InSize or writes past Out + OutSize.
bool inflateZlib(const uint8_t *In, size_t InSize, uint8_t *Out, size_t OutSize);

} // namespace popcorn

#endif
