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

/// What popcorn-ctl knows of a process of this user from /proc, without
/// asking it (include/popcorn/Control.h).
struct ProcessKind {
  bool Home;        // a popcorn program's home process, which has a socket or opens one if asked
  bool ControlOff;  // started with POPCORN_CONTROL=off: it opens none
  std::string Socket; // where a home puts its socket (its environment says)
  int OpenSignal;   // the signal that asks it to open it, as this process sends it
};
ProcessKind kindOf(int Pid);

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

/// Asks home process Pid to open its socket (a queued signal) and
/// exchanges Request with it there once it answers, within a few seconds.
Exchange askToOpen(int Pid, const ProcessKind &Kind, const popcorn_control_request &Request,
                   popcorn_control_reply &Reply, std::string &Why);

/// A request of Type (and for a move, its destination and thread).
popcorn_control_request makeRequest(uint32_t Type, int Node = 0, int Tid = 0);

} // namespace popcorn

#endif
