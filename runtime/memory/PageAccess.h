//===- PageAccess.h - How the program may use the pages home serves -*- C++ -*-===//
//
// Two things about a page that a node must know to treat it as home's
// kernel would, which home reads from /proc/self/maps rather than keep:
//
// * Read-only.  A node maps the page read-only, so that a write the
//   program's protections forbid (a guard, a read-only mapping, a
//   collector's write barrier) faults away from home too, instead of
//   succeeding there and being lost when the thread comes back (home's
//   kernel will not write such a page).
// * Shared with other processes (MAP_SHARED: a file, memory shared with a
//   forked child).  Another process may write it at any time, and reads
//   what the program wrote: a node gives its copy back before each system
//   call the thread makes (the ways a single thread waits for or tells
//   another process: a pipe, a futex, a wait), so that what it wrote
//   reaches home and what it reads next is home's.
//
// Most programs never make a page read-only (malloc's calls make memory
// writable or inaccessible) or map memory shared; those that do are what
// the maps describe.  Once the program has made a call that can (counted
// by noteMappingCall), home reads the maps' list of such mappings, again
// after every further mapping call, and cuts each run it serves where
// they change.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_PAGEACCESS_H
#define POPCORN_RUNTIME_PAGEACCESS_H

#include <stdint.h>

namespace popcorn {

/// Home: of Pages pages from Address, how many (at least 1) are of the
/// first one's kind; Flags says which (PageRunReadOnly, PageRunMapShared).
uint32_t sameAccessRun(uint64_t Address, uint32_t Pages, uint32_t &Flags);

} // namespace popcorn

#endif
