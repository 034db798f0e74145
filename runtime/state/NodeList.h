//===- NodeList.h - POPCORN_NODES, read ---------------------------*- C++ -*-===//
//
// POPCORN_NODES lists the nodes a program may use, as ','-separated
// ID:ISA:LAUNCHER entries: ISA is x86_64 or aarch64, LAUNCHER is native
// (a process of this machine's ISA), qemu (under qemu-user) or
// tcp:HOST:PORT (a popcorn-node; HOST an IPv4 address, or an IPv6 one,
// in brackets or not: the port is after the last ':') or ssh:[USER@]HOST
// (a popcorn-node started on HOST through ssh, or POPCORN_SSH's command:
// nodes/RemoteLauncher.h).  A list replaces the default table whole: a
// node it does not name does not exist.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_NODELIST_H
#define POPCORN_RUNTIME_NODELIST_H

#include "link/Message.h"
#include "support/Report.h"

namespace popcorn {

enum class Launcher : uint8_t { Native, Qemu, Tcp, Ssh };

/// Where a node runs: one entry of the list.
struct NodePlace {
  uint16_t Machine; // ELF e_machine; 0: no such node
  Launcher How;
  char Host[64];    // tcp: the address, without brackets; ssh: [USER@]HOST
  uint16_t Port;
};

/// Reads List for a home process of ISA Here into Nodes, and into Count
/// one more than the highest node number.  False if an entry is malformed,
/// with the entry and why in Why (one line, for "POPCORN_NODES: ").
bool readNodeList(const char *List, uint16_t Here, NodePlace (&Nodes)[MaxNodes], int &Count,
                  TextBuffer &Why);

/// "x86_64" or "aarch64", or null for no such ISA.
const char *isaName(uint16_t Machine);

} // namespace popcorn

#endif
