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

const char *popcorn_node_isa(int Node) {
  NodeState &N = node();
  return Node >= 0 && Node < N.NodeCount ? isaName(N.Nodes[Node].Machine) : nullptr;
}

int popcorn_requested_node(void) { return takeSignalledDestination(); }
