//===- WrittenPages.cpp - The pages home wrote since a point --------------===//
#include "memory/WrittenPages.h"
#include "state/NodeState.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

// The kernel's interface, from linux/userfaultfd.h and linux/fs.h of
// Linux 6.7 (the build's headers may predate it).
constexpr long UserModeOnly = 1, OpenCloexec = 02000000;
constexpr uint64_t UffdApi = 0xaa, RegisterModeWp = 2;
constexpr uint64_t FeatureWpHugetlbfsShmem = 1 << 12, FeatureWpUnpopulated = 1 << 13,
                   FeatureWpAsync = 1 << 15;
constexpr long UffdioApi = 0xc018aa3f, UffdioRegister = 0xc020aa00, PagemapScan = 0xc0606610;
constexpr uint64_t ScanWpMatching = 1, PageIsWritten = 2, PageIsFile = 4;

struct UffdioApiArg {
  uint64_t Api, Features, Ioctls;
};
struct UffdioRegisterArg {
  uint64_t Start, Length, Mode, Ioctls;
};
struct PageRegion {
  uint64_t Start, End, Categories;
};
struct PmScanArg {
  uint64_t Size, Flags, Start, End, WalkEnd, Vec, VecLength, MaxPages;
  uint64_t CategoryInverted, CategoryMask, CategoryAnyofMask, ReturnMask;
};

// Off for good, for Why: the registration goes with the descriptor.
bool giveUp(const char *Why) {
  NodeState &N = node();
  if (N.WriteTrackerOwner)
    sys::call6(sys::Close, N.WriteTrackerFd);
  N.WriteTrackerOwner = 0;
  N.WriteTrackingOff = Why;
  return false;
}

bool startTracker() {
  NodeState &N = node();
  long Fd = sys::call6(sys::Userfaultfd, OpenCloexec | UserModeOnly);
  if (sys::failed(Fd))
    return giveUp("no userfaultfd here");
  // Async write protection on anonymous, shared and file memory alike,
  // with the pages not populated yet protected too.
  UffdioApiArg Api = {UffdApi, FeatureWpAsync | FeatureWpUnpopulated | FeatureWpHugetlbfsShmem, 0};
  if (sys::call6(sys::Ioctl, Fd, UffdioApi, long(&Api)) != 0) {
    sys::call6(sys::Close, Fd);
    return giveUp("the kernel has no asynchronous write protection (Linux 6.7)");
  }
  N.WriteTrackerFd = int(sys::outOfTheWay(Fd));
  N.WriteTrackerOwner = int(sys::call6(sys::Getpid, 0));
  return true;
}

// One PAGEMAP_SCAN of [From, High): the runs of pages with one of Wanted,
// up to Capacity of them into Runs (none if Capacity is 0), protecting
// those when Flags has ScanWpMatching.  Returns how many, or a negative
// errno; WalkEnd is where the walk stopped (High once done).
long scan(long Pagemap, uint64_t From, uint64_t High, uint64_t Flags, uint64_t Wanted,
          PageRegion *Runs, uint64_t Capacity, uint64_t &WalkEnd) {
  PmScanArg A = {sizeof A, Flags, From, High, 0, uint64_t(Runs), Capacity, 0, 0, 0, Wanted, Wanted};
  long Count = sys::call6(sys::Ioctl, Pagemap, PagemapScan, long(&A));
  WalkEnd = A.WalkEnd;
  return Count;
}

} // namespace

bool tracksWrites() { return node().WriteTrackerOwner != 0; }

const char *writeTrackingOff() { return node().WriteTrackingOff; }

void refuseWriteTracking() { node().WriteTrackingOff = "POPCORN_TRACK_WRITES=0"; }

int writeTrackerDescriptor() {
  NodeState &N = node();
  return N.WriteTrackerOwner && N.WriteTrackerOwner == sys::call6(sys::Getpid, 0)
             ? N.WriteTrackerFd
             : -1;
}

// Not closed: the child's program may have closed it and opened another
// file under that number (the descriptor is not the runtime's there).
void leaveParentsTracker() {
  NodeState &N = node();
  if (N.WriteTrackerOwner && N.WriteTrackerOwner != sys::call6(sys::Getpid, 0))
    N.WriteTrackerOwner = 0;
}

void writeTrackerMoved(int NewFd) { node().WriteTrackerFd = NewFd; }

bool scanWrittenPages(uint64_t Low, uint64_t High, void (*Visit)(void *, uint64_t, uint64_t),
                      void *Context) {
  if (!tracksWrites())
    return false;
  long Pagemap = sys::openForReading("/proc/self/pagemap");
  if (sys::failed(Pagemap))
    return giveUp("/proc/self/pagemap cannot be read");
  PageRegion Runs[64];
  long Count = 0;
  for (uint64_t From = Low, Next; From < High; From = Next) {
    Count = scan(Pagemap, From, High, 0, PageIsWritten | PageIsFile, Runs, 64, Next);
    if (Count < 0 || (Next <= From && (Count = -1)))
      break;
    for (long I = 0; I < Count; I++)
      Visit(Context, Runs[I].Start, Runs[I].End);
  }
  sys::call6(sys::Close, Pagemap);
  return Count >= 0 || giveUp("the kernel has no PAGEMAP_SCAN (Linux 6.7)");
}

bool protectWrittenPages(uint64_t Low, uint64_t High) {
  NodeState &N = node();
  if (N.WriteTrackingOff || Low >= High)
    return true;
  if (!N.WriteTrackerOwner && !startTracker())
    return false;
  UffdioRegisterArg Register = {Low, High - Low, RegisterModeWp, 0};
  if (sys::call6(sys::Ioctl, N.WriteTrackerFd, UffdioRegister, long(&Register)) != 0)
    return giveUp("the program's memory cannot be write-protected");
  long Pagemap = sys::openForReading("/proc/self/pagemap");
  if (sys::failed(Pagemap))
    return giveUp("/proc/self/pagemap cannot be read");
  uint64_t WalkEnd;
  long Done = scan(Pagemap, Low, High, ScanWpMatching, PageIsWritten, nullptr, 0, WalkEnd);
  sys::call6(sys::Close, Pagemap);
  return (Done >= 0 && WalkEnd == High) || giveUp("the kernel has no PAGEMAP_SCAN (Linux 6.7)");
}

} // namespace popcorn
