//===- ReadOnlyPages.h - Home's pages the program may only read -*- C++ -*-===//
//
// A node maps each page home serves it with the access the program has to
// it at home, so that a write to a page the program protected read-only
// (a guard, a read-only mapping, a collector's write barrier) faults away
// from home too, instead of succeeding there and being lost when the
// thread comes back (home's kernel will not write such a page).
//
// Home does not track protections itself: most programs never take write
// access from a page (malloc only makes memory writable), and those that
// do are what /proc/self/maps describes.  Once the program has made a
// call that can (noteMappingCall counts them), home reads the maps' list
// of readable, unwritable mappings, again after every further mapping
// call, and cuts each run it serves where the access changes.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_READONLYPAGES_H
#define POPCORN_RUNTIME_READONLYPAGES_H

#include <stdint.h>

namespace popcorn {

/// Home: of Pages pages from Address, how many (at least 1) the program
/// may write as much as the first, and whether that is not at all.
uint32_t sameAccessRun(uint64_t Address, uint32_t Pages, bool &ReadOnly);

} // namespace popcorn

#endif
