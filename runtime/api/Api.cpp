//===- Api.cpp - <popcorn.h> ----------------------------------------------===//
//
// popcorn_migrate itself is assembly (migration/arch/*.S): it records the request
// here and takes a migration point as its caller's call site, so that the
// thread leaves and lands exactly at the call.
//
//===----------------------------------------------------------------------===//
#include "migration/Triggers.h"
#include "nodes/HomeNode.h"
#include "state/NodeState.h"
#include <popcorn.h>

using namespace popcorn;

extern "C" void popcorn_request_migration(int Node) {
  NodeState &N = node();
  N.Requested = true;
  N.RequestedNode = Node;
}

int popcorn_current_node(void) { return node().Self; }

int popcorn_num_nodes(void) { return node().NodeCount; }

// isa.c: the names at one address in every image.
extern "C" const char popcorn_isa_names[2][8];

const char *popcorn_node_isa(int Node) {
  NodeState &N = node();
  if (Node < 0 || Node >= N.NodeCount)
    return nullptr;
  const char *Name = isaName(N.Nodes[Node].Machine);
  for (const char *Shared : popcorn_isa_names)
    if (Name && __builtin_strcmp(Name, Shared) == 0)
      return Shared;
  return nullptr;
}

int popcorn_requested_node(void) { return takeSignalledDestination(); }
