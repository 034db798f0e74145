//===- WrittenPages.h - The pages home wrote since a point ------*- C++ -*-===//
//
// Before the thread goes back to a node, home names the pages that node
// keeps which changed here since it got them (RetainedPages.h).  Hashing
// home's copy of each costs 0.4 us a page at every departure, changed or
// not, so it pays only up to 64 MiB held.  The kernel can tell instead:
// memory registered with a userfaultfd in asynchronous write-protect mode
// (UFFD_FEATURE_WP_ASYNC, Linux 6.7) is protected by a PAGEMAP_SCAN ioctl
// on /proc/self/pagemap; the first write to a protected page is a fault
// the kernel resolves by itself (0.7 us here: no signal, no thread, the
// program never sees it), and the page reads as written until a scan
// protects it again.  A page in memory registered after the last
// protection, or replaced since (mapped over, moved), reads as written.
//
// What no write of this process shows: pages backed by a file or shared
// with other processes change without one, so they count as written at
// every scan (the PAGE_IS_FILE category); and an unmapped page is not
// reported at all, so home marks the pages of every range a mapping call
// unmaps, moves or protects (RetainedPages.h: notePagesChanged).
//
// Where the kernel offers none of it (older kernels, qemu-user, a seccomp
// filter), or POPCORN_TRACK_WRITES=0, home hashes.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_WRITTENPAGES_H
#define POPCORN_RUNTIME_WRITTENPAGES_H

#include <stdint.h>

namespace popcorn {

/// Home: whether writes are tracked (protectWrittenPages started the
/// tracker, and it has not given up).
bool tracksWrites();

/// Home: why writes are not tracked, or null if they are or the tracker
/// was never started.
const char *writeTrackingOff();

/// Home: POPCORN_TRACK_WRITES=0 in the environment.
void refuseWriteTracking();

/// Home: the tracker's userfaultfd, if this process has one, else -1.
int writeTrackerDescriptor();

/// Home, in a forked child: the tracker it has a copy of is its parent's
/// (its own memory is not registered); it may start one of its own.
void leaveParentsTracker();

/// Home: the tracker's descriptor is now NewFd (moved out of the program's
/// way).
void writeTrackerMoved(int NewFd);

/// Home: calls Visit(Start, End) for each run of pages in [Low, High)
/// written since protectWrittenPages last covered them, or backed by a
/// file; false if the kernel failed (the tracker is then off).
template <class Visitor> bool forEachWrittenRun(uint64_t Low, uint64_t High, Visitor Visit);

/// Home: registers what was mapped in [Low, High) since and protects its
/// pages again, so that from now on only new writes show, starting the
/// tracker the first time; false if the kernel failed now (the tracker is
/// then off).  Nothing to do, and true, once the tracker is off.
bool protectWrittenPages(uint64_t Low, uint64_t High);

// forEachWrittenRun's work, with its visitor as a plain function.
bool scanWrittenPages(uint64_t Low, uint64_t High, void (*Visit)(void *, uint64_t, uint64_t),
                      void *Context);

template <class Visitor> bool forEachWrittenRun(uint64_t Low, uint64_t High, Visitor Visit) {
  return scanWrittenPages(
      Low, High,
      [](void *Context, uint64_t Start, uint64_t End) {
        (*static_cast<Visitor *>(Context))(Start, End);
      },
      &Visit);
}

} // namespace popcorn

#endif
