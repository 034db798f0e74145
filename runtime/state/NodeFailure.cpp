//===- NodeFailure.cpp - How a remote node ends when it cannot go on ------===//
#include "state/NodeFailure.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"

namespace popcorn {

void failNode(const char *What) {
  NodeState &N = node();
  Line() << "popcorn: node " << uint64_t(N.Self) << ": " << What;
  if (!N.ReadySent) { // home is waiting for an answer: this is it
    uint32_t Length = 0;
    while (What[Length])
      Length++;
    N.HomeLink.send(MessageType::NodeError, What, Length);
  }
  sys::exitGroup(1);
}

void retryNode(const char *What) {
  uint32_t Length = 0;
  while (What[Length])
    Length++;
  node().HomeLink.send(MessageType::AddressTaken, What, Length);
  sys::exitGroup(1);
}

void lostHome() {
  NodeState &N = node();
  // Home's other threads ran while this one waited, and one ended the
  // program: this thread ends with it, as it would there.
  if (N.OthersHeldAtHome && !N.HomeLink.TimedOut)
    sys::exitGroup(0);
  {
    Line L;
    L << "popcorn: node " << uint64_t(N.Self) << ": ";
    if (N.HomeLink.TimedOut)
      L << "the home node did not answer within " << uint64_t(N.HomeLink.TimeoutMs)
        << " ms (POPCORN_TIMEOUT)";
    else
      L << "lost the link to the home node";
  }
  sys::exitGroup(1);
}

} // namespace popcorn
