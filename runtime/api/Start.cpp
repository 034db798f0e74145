//===- Start.cpp - The runtime's first look at a process ------------------===//
//
// musl's __libc_start_main calls __popcorn_start before anything else
// (libc-patches/common/0002-node-hooks.patch).  It maps this process's
// runtime state, then either becomes a remote node (POPCORN_NODE=ID:FD,
// or ID:FD:KEYFD[:FD,FD...] in the environment: started by popcorn-node
// or a home node) or sets up the home node: the arena and the node table.
//
//===----------------------------------------------------------------------===//
#include "control/ControlSocket.h"
#include "memory/AddressSpace.h"
#include "nodes/HomeNode.h"
#include "nodes/RemoteNode.h"
#include "state/NodeState.h"
#include "state/Settings.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include "support/Text.h"

using namespace popcorn;

extern "C" void __popcorn_start(int Argc, char **Argv) {
  char **Envp = Argv + Argc + 1;
  long Map = sys::call6(sys::Mmap, long(NodePrivateBase), long(pageUp(sizeof(NodeState))),
                        sys::ProtReadWrite, sys::MapPrivateAnonymous | sys::MapFixedNoReplace,
                        -1, 0);
  if (uint64_t(Map) != NodePrivateBase) {
    Line L;
    L << "popcorn: cannot map the runtime's state at ";
    L.hex(NodePrivateBase);
    sys::exitGroup(127);
  }
  NodeState &N = node();
  for (int I = 0; I < MaxNodes; I++) {
    N.Nodes[I].Link.open(-1);
    N.Nodes[I].Link.Ahead = N.LinkBuffers[I];
  }
  readSettings(Envp);

  if (const char *P = setting(Setting::Node)) {
    uint64_t Id, Fd, KeyFd;
    bool Valid = readUnsigned(P, MaxNodes - 1, Id) && Id > 0 && *P++ == ':' &&
                 readUnsigned(P, 1 << 20, Fd);
    bool HasKey = Valid && *P == ':';
    if (HasKey)
      Valid = readUnsigned(++P, 1 << 20, KeyFd);
    // Then the program's descriptors this process got from home, which
    // are not its to keep (HomeNode.cpp: spawnNode).
    if (Valid && HasKey && *P == ':') {
      uint64_t Inherited;
      do {
        if ((Valid = readUnsigned(++P, 1 << 20, Inherited)))
          sys::call6(sys::Close, long(Inherited));
      } while (Valid && *P == ',');
    }
    if (!Valid || *P) {
      Line() << "popcorn: POPCORN_NODE is set by the home node for the nodes it starts";
      sys::exitGroup(2);
    }
    runRemoteNode(int(Id), int(Fd), HasKey ? int(KeyFd) : -1, Envp);
  }

  // Without the arena the program runs, but no thread can leave.
  reserveArena();
  if (!readNodeTable())
    sys::exitGroup(2);
  awaitControlRequests(Envp);
}
