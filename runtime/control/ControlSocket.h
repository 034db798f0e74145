//===- ControlSocket.h - popcorn-ctl's way into a running program -*- C++ -*-===//
//
// Every home process listens on a Unix socket of its own,
// $XDG_RUNTIME_DIR/popcorn/PID or /tmp/popcorn-UID/PID (a directory only
// its user may enter), and answers popcorn-ctl's requests
// (include/popcorn/Control.h): the thread's node and counters, the node
// table, a move to another node (Steering.h).  Remote nodes have none.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_CONTROLSOCKET_H
#define POPCORN_RUNTIME_CONTROLSOCKET_H

namespace popcorn {

/// At home, before libc starts: opens the socket and starts the thread
/// that serves it.  If it cannot, one warning line (none with
/// POPCORN_LOG=quiet) and the program runs without it; POPCORN_CONTROL=off
/// skips it.
void openControlSocket(char **Envp);

/// At home: whether this process has the socket's thread (a forked child
/// has not), which touches no memory of the program.
bool controlThreadRuns();

/// At home: the socket's descriptor, -1 if there is none.
int controlSocketDescriptor();

/// At home: the socket is now descriptor Fd.
void controlSocketMoved(int Fd);

/// At home, as the process ends: removes the socket's name.  Not in a
/// forked child, which has a copy of the socket but no thread serving it.
void closeControlSocket();

} // namespace popcorn

#endif
