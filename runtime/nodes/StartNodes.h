//===- StartNodes.h - Home reads the node table and starts the nodes -*- C++ -*-===//
//
// The node table (POPCORN_NODES, state/NodeList.h) is read as the
// program starts; each node starts when the thread first goes there
// (StartNodes.cpp says how), and stops when it dies or the program ends.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_NODES_STARTNODES_H
#define POPCORN_RUNTIME_NODES_STARTNODES_H

#include "Rewrite.h"
#include "state/NodeState.h"
#include "support/Report.h"

namespace popcorn {

/// Starts node Id, which runs the thread in Stack's reach; false with
/// the reason in StartFailure.
bool startNode(int Id, const StackRegion &Stack);

/// Why the last start of a node failed, for the warning.
extern char StartFailure[320];

/// Node E's process ends (if home started it) and its link closes.
void stopNode(NodeEntry &E);

/// Whether node E, started, ended since the thread last left it (its
/// process was reaped, or its link hung up), and how, in Why.  A node
/// says nothing between trips: this is asked before the thread is sent.
bool nodeEnded(NodeEntry &E, TextBuffer &Why);

/// Node Id, which ended, is stopped; it starts again at the next move
/// there as at the first, holding none of home's pages.
void forgetEndedNode(int Id);

/// A node's name in messages: "node 1 (aarch64)", "node 3 (x86_64 at
/// HOST:PORT)", "node 4 (aarch64 at ssh:USER@HOST)".
void nameNode(Line &L, const NodeEntry &E, int Id);

/// A forked child has copies of its parent's links, to nodes that serve
/// the parent's thread: it closes them (the parent keeps its own) and
/// starts nodes of its own, which hold none of its pages yet.
void leaveParentsNodes();

} // namespace popcorn

#endif
