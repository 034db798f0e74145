//===- MigrationMetadata.cpp - The metadata, inflated on first use --------===//
#include "state/MigrationMetadata.h"
#include "state/Inflate.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"

// Laid out by popcorn-ld at the same address in every ISA's image.
extern "C" const uint8_t __popcorn_metadata[], __popcorn_metadata_end[];

namespace popcorn {
namespace {

// NodeState::MetadataState: Inflating + the process's id while a thread of
// that process inflates it (a process forked meanwhile starts again).
enum : uint32_t { NotInflated, Inflated, Damaged, Inflating };
constexpr long FutexWaitPrivate = 128, FutexWakePrivate = 129; // FUTEX_*_PRIVATE

// Says on one line that the section is damaged, and why (Why, then Number
// and After if After is given).
const popcorn_metadata *damaged(const char *Why, uint64_t Number = 0,
                                const char *After = nullptr) {
  Line L;
  L << "popcorn: the migration metadata in section " POPCORN_METADATA_SECTION " is damaged: "
    << Why;
  if (After)
    L << Number << After;
  return nullptr;
}

const popcorn_metadata *inflateMetadata() {
  popcorn_packed_metadata Header;
  uint64_t Room = uint64_t(__popcorn_metadata_end - __popcorn_metadata);
  if (Room < sizeof Header)
    return damaged("it is shorter than its header");
  __builtin_memcpy(&Header, __popcorn_metadata, sizeof Header);
  if (__builtin_memcmp(Header.magic, POPCORN_PACKED_METADATA_MAGIC, sizeof Header.magic))
    return damaged("it does not start with " POPCORN_PACKED_METADATA_MAGIC);
  if (Header.compressed_size > Room - sizeof Header)
    return damaged("its header says ", Header.compressed_size,
                   " compressed bytes, more than the section holds");
  uint64_t Size = Header.inflated_size;
  if (Size < sizeof(popcorn_metadata))
    return damaged("its header says it inflates to ", Size, " bytes");
  uint8_t *Shuffled = sys::mapPrivate(Size), *Blob = sys::mapPrivate(Size);
  const popcorn_metadata *Result = nullptr;
  if (!Shuffled || !Blob)
    Line() << "popcorn: no memory to inflate the migration metadata into (" << Size << " bytes)";
  else if (!inflateZlib(__popcorn_metadata + sizeof Header, Header.compressed_size, Shuffled,
                        Size))
    damaged("the zlib stream does not inflate to ", Size, " bytes");
  else if (!popcorn_shuffle_sites(Blob, Shuffled, uint32_t(Size), /*Pack=*/0))
    damaged("the inflated blob is not popcorn metadata of this version, or its sites lie outside "
            "it");
  else
    Result = reinterpret_cast<const popcorn_metadata *>(Blob);
  if (Shuffled)
    sys::call6(sys::Munmap, long(Shuffled), long((Size + 4095) & ~uint64_t(4095)));
  if (Blob && !Result)
    sys::call6(sys::Munmap, long(Blob), long((Size + 4095) & ~uint64_t(4095)));
  return Result;
}

} // namespace

const popcorn_metadata *migrationMetadata() {
  NodeState &N = node();
  for (;;) {
    uint32_t State = __atomic_load_n(&N.MetadataState, __ATOMIC_ACQUIRE);
    if (State == Inflated)
      return N.Metadata;
    if (State == Damaged)
      return nullptr;
    uint32_t Self = Inflating + uint32_t(sys::call6(sys::Getpid, 0));
    if (State == NotInflated) {
      if (!__atomic_compare_exchange_n(&N.MetadataState, &State, Self, false, __ATOMIC_ACQUIRE,
                                       __ATOMIC_ACQUIRE))
        continue;
      // No signal handler of this thread may run meanwhile: one that met a
      // migration point would wait for this thread, which waits for it.
      // Faults stay deliverable (a remote node brings pages in on SIGSEGV).
      constexpr uint64_t Faults = 1u << (4 - 1) | 1u << (5 - 1) | 1u << (7 - 1) |
                                  1u << (8 - 1) | 1u << (11 - 1); // ILL TRAP BUS FPE SEGV
      uint64_t All = ~Faults, Old = 0;
      sys::call6(sys::RtSigprocmask, 0 /* SIG_BLOCK */, long(&All), long(&Old), 8);
      N.Metadata = inflateMetadata();
      __atomic_store_n(&N.MetadataState, N.Metadata ? Inflated : Damaged, __ATOMIC_RELEASE);
      sys::call6(sys::RtSigprocmask, 2 /* SIG_SETMASK */, long(&Old), 0, 8);
      sys::call6(sys::Futex, long(&N.MetadataState), FutexWakePrivate, 0x7fffffff);
      return N.Metadata;
    }
    if (State != Self) {
      // Inflating in the process this one was forked from: nobody here
      // finishes it.  Start again.
      __atomic_compare_exchange_n(&N.MetadataState, &State, NotInflated, false, __ATOMIC_ACQUIRE,
                                  __ATOMIC_ACQUIRE);
      continue;
    }
    // Another thread of this process inflates it: wait until it is done.
    sys::call6(sys::Futex, long(&N.MetadataState), FutexWaitPrivate, long(State), 0);
  }
}

} // namespace popcorn
