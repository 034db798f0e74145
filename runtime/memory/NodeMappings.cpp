//===- NodeMappings.cpp - Memory a node maps and unmaps without home ------===//
#include "memory/NodeMappings.h"
#include "memory/RemotePages.h"
#include "state/NodeFailure.h"
#include "state/NodeState.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

void remove(uint32_t I) {
  NodeState &N = node();
  N.Mappings[I] = N.Mappings[--N.MappingCount];
}

bool overlaps(const NodeMapping &M, uint64_t Address, uint64_t Bytes) {
  return M.Address < Address + Bytes && Address < M.Address + M.Bytes;
}

} // namespace

bool unmapAtHome(uint64_t Address, uint64_t Bytes) {
  if (Address % PageBytes || !Bytes || !inArena(Address, Bytes))
    return false;
  dropPages(Address, Bytes);
  UnmapMessage M{Address, Bytes};
  if (!node().HomeLink.send(MessageType::Unmap, &M, sizeof M))
    lostHome();
  return true;
}

void noteNodeMapping(uint64_t Address, uint64_t Bytes, long Prot, long Flags) {
  NodeState &N = node();
  if (N.MappingCount < MaxNodeMappings)
    N.Mappings[N.MappingCount++] = {Address, Bytes, Prot, Flags, false};
}

uint64_t reuseKeptRange(uint64_t Bytes, long Prot, long Flags) {
  NodeState &N = node();
  for (uint32_t I = 0; I < N.MappingCount; I++) {
    NodeMapping &M = N.Mappings[I];
    if (M.Kept && M.Bytes == Bytes && M.Prot == Prot && M.Flags == Flags) {
      // Dropped again: a request for the pages below it may have asked
      // for some of its pages since (home still has them).
      M.Kept = false;
      takeFreshRange(M.Address, M.Bytes);
      return M.Address;
    }
  }
  return 0;
}

bool keepUnmappedRange(uint64_t Address, uint64_t Bytes) {
  NodeState &N = node();
  for (uint32_t I = 0; I < N.MappingCount; I++) {
    NodeMapping &M = N.Mappings[I];
    if (!M.Kept && M.Address == Address && M.Bytes == Bytes) {
      dropPages(Address, Bytes);
      M.Kept = true;
      return true;
    }
  }
  return false;
}

bool inKeptRange(uint64_t A) {
  NodeState &N = node();
  for (uint32_t I = 0; I < N.MappingCount; I++)
    if (N.Mappings[I].Kept && overlaps(N.Mappings[I], A, 1))
      return true;
  return false;
}

void settleNodeMappings(uint64_t Address, uint64_t Bytes) {
  NodeState &N = node();
  for (uint32_t I = 0; I < N.MappingCount;) {
    NodeMapping &M = N.Mappings[I];
    if (M.Kept) // dropped again, as in reuseKeptRange
      unmapAtHome(M.Address, M.Bytes);
    if (M.Kept || overlaps(M, Address, Bytes))
      remove(I); // the last entry moves to I: look at it next
    else
      I++;
  }
}

void endNodeMappings() {
  settleNodeMappings(0, 0);
  node().MappingCount = 0;
}

} // namespace popcorn
