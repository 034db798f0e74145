//===- ControlClient.h - Talking to a program's control socket --*- C++ -*-===//
//
// Where the sockets are and one request/reply exchange with one of them
// (include/popcorn/Control.h).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_TOOLS_CONTROLCLIENT_H
#define POPCORN_TOOLS_CONTROLCLIENT_H

#include <popcorn/Control.h>
#include <string>
#include <vector>

namespace popcorn {

/// The directories a program of this user may have put its socket in, in
/// the order the runtime prefers them: $XDG_RUNTIME_DIR/popcorn, then
/// /tmp/popcorn-UID (a program started without XDG_RUNTIME_DIR).
std::vector<std::string> controlDirectories();

/// The socket of process Pid, or "" if none of the directories has one.
std::string socketOf(int Pid);

enum class Exchange {
  Answered, // Reply holds the program's answer (its error field may be set)
  Stale,    // nobody listens there: the process is gone or exec'd
  Denied,   // the socket or its directory is not ours
  Failed,   // anything else; Why says what
};

/// Sends Request to the socket at Path and reads the reply, within a few
/// seconds.
Exchange exchange(const std::string &Path, const popcorn_control_request &Request,
                  popcorn_control_reply &Reply, std::string &Why);

/// A request of Type (and for a move, its destination and thread).
popcorn_control_request makeRequest(uint32_t Type, int Node = 0, int Tid = 0);

} // namespace popcorn

#endif
