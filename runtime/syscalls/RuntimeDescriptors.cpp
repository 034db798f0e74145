//===- RuntimeDescriptors.cpp - Home's own descriptors, out of the program's way ===//
#include "syscalls/RuntimeDescriptors.h"
#include "control/ControlSocket.h"
#include "memory/WrittenPages.h"
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/NodeState.h"
#include "support/Syscall.h"
#include <unistd.h>

namespace popcorn {

bool isRuntimeDescriptor(long Fd) {
  NodeState &N = node();
  if (Fd < 0)
    return false;
  // A forked child has copies of its parent's: its own to close.
  for (int I = 1; I < N.NodeCount; I++)
    if (N.Nodes[I].Link.Fd == Fd)
      return N.LinksOwner == getpid();
  return (Fd == controlSocketDescriptor() && controlThreadRuns()) ||
         (Fd == N.WriteTrackerFd && Fd == writeTrackerDescriptor()) ||
         Fd == awaySignalDescriptor() || Fd == steeringWakeDescriptor();
}

long closeProgramRange(uint32_t First, uint32_t Last, long Flags) {
  NodeState &N = node();
  // CLOSE_RANGE_CLOEXEC closes nothing (the runtime's are close-on-exec).
  constexpr long Cloexec = 4;
  int Own[MaxNodes + 4], Count = 0;
  auto Note = [&](int Fd) {
    if (Fd < 0 || uint32_t(Fd) < First || uint32_t(Fd) > Last || !isRuntimeDescriptor(Fd))
      return;
    int At = Count++;
    for (; At > 0 && Own[At - 1] > Fd; At--)
      Own[At] = Own[At - 1];
    Own[At] = Fd;
  };
  if (!(Flags & Cloexec) && First <= Last) { // else the kernel's EINVAL
    for (int I = 1; I < N.NodeCount; I++)
      Note(N.Nodes[I].Link.Fd);
    Note(controlSocketDescriptor());
    Note(writeTrackerDescriptor());
    Note(awaySignalDescriptor());
    Note(steeringWakeDescriptor());
  }
  // The ranges around them, from the lowest up.
  uint64_t From = First;
  for (int I = 0; I <= Count; I++) {
    uint64_t To = I < Count ? uint64_t(Own[I]) - 1 : Last;
    if (From <= To || !Count) {
      long R = sys::call6(sys::CloseRange, long(From), long(To), Flags);
      if (R < 0)
        return R;
    }
    if (I < Count)
      From = uint64_t(Own[I]) + 1;
  }
  return 0;
}

void moveRuntimeDescriptor(long Fd) {
  NodeState &N = node();
  if (!isRuntimeDescriptor(Fd))
    return;
  int Moved = int(sys::outOfTheWay(Fd, false));
  if (Moved == Fd)
    return; // no room: the program's call takes it, as before
  for (int I = 1; I < N.NodeCount; I++)
    if (N.Nodes[I].Link.Fd == Fd)
      N.Nodes[I].Link.Fd = Moved;
  if (Fd == controlSocketDescriptor())
    controlSocketMoved(Moved);
  if (Fd == writeTrackerDescriptor())
    writeTrackerMoved(Moved);
  if (Fd == awaySignalDescriptor())
    awaySignalDescriptorMoved(Moved);
  if (Fd == steeringWakeDescriptor())
    node().SteerWakeFd = Moved;
}

} // namespace popcorn
