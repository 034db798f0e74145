//===- ControlSocket.h - popcorn-ctl's way into a running program -*- C++ -*-===//
//
// Every home process popcorn-ctl asks (include/popcorn/Control.h says
// how) listens from then on a Unix socket of its own,
// $XDG_RUNTIME_DIR/popcorn/PID or /tmp/popcorn-UID/PID (a directory only
// its user may enter), and answers popcorn-ctl's requests
// (include/popcorn/Control.h): the thread's node and counters, the node
// table, a move to another node (Steering.h).  Remote nodes have none.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_CONTROLSOCKET_H
#define POPCORN_RUNTIME_CONTROLSOCKET_H

namespace popcorn {

/// At home, before libc starts: makes the socket's signal
/// (POPCORN_CONTROL_OPEN_SIGNAL) the runtime's, to open the socket and
/// start the thread that serves it when popcorn-ctl first asks.  Envp is
/// where the socket goes and whether it may (POPCORN_CONTROL=off: never),
/// read when asked.  One system call: a program never asked pays no more.
void awaitControlRequests(char **Envp);

/// At home: the same signal, not popcorn-ctl's request (`kill -RTMIN`
/// from a shell), runs Trigger; until this is called it is ignored.
void setShellSignalTrigger(void (*Trigger)(int));

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

/// Home, in the program's first pthread_create: under qemu-user, the
/// threads there already but the caller are qemu's (and the control
/// thread), which popcorn-ctl does not list or steer.
void noteQemuThreads();

} // namespace popcorn

#endif
