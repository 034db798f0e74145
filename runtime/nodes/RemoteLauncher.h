//===- RemoteLauncher.h - Nodes started on other hosts by a command -*- C++ -*-===//
//
// An ssh:[USER@]HOST node is a popcorn-node that home starts on HOST, as
// MPI's hostfile launchers start their daemons: home runs
//
//     POPCORN_SSH... [USER@]HOST POPCORN_NODE_COMMAND... --stdio
//
// (POPCORN_SSH defaults to ssh, POPCORN_NODE_COMMAND to popcorn-node;
// both are split at spaces) with one end of a socket pair as the command's
// standard input and output.  popcorn-node relays those to the node it
// starts, so the pair is the node's link: authenticated with the user's
// key file as a tcp: node's is, the image sent over it, and encrypted by
// ssh on the way.  Any command that runs a command on a host and connects
// its standard streams will do: POPCORN_SSH='srun -N1 -n1 -w' starts the
// node on a host of a Slurm allocation.
//
// What the launcher writes on stderr is kept in a memory file, so that a
// node that does not start is reported in one line with the launcher's
// reason (ssh: connect to host ...: Connection refused).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_NODES_REMOTELAUNCHER_H
#define POPCORN_RUNTIME_NODES_REMOTELAUNCHER_H

#include "state/NodeState.h"

namespace popcorn {

/// Starts E's launcher, which links E to a popcorn-node on E's host;
/// false with the reason in StartFailure (StartNodes.h).
bool launchRemoteNode(NodeEntry &E);

/// After E's greeting failed: if its launcher ended, StartFailure says
/// why in the launcher's words instead of the link's.
void explainLauncherFailure(NodeEntry &E);

/// Closes what the launcher of E wrote (the process itself is E.Pid).
void forgetLauncherErrors(NodeEntry &E);

} // namespace popcorn

#endif
