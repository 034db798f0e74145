//===- HomeCalls.cpp - Calls that run in the home process -----------------===//
#include "HomeCalls.h"
#include "NodeState.h"
#include <stddef.h>

using namespace popcorn;

static_assert(POPCORN_REMOTE_FLAG == NodePrivateBase && offsetof(NodeState, Remote) == 0,
              "the wrappers read NodeState::Remote");

extern "C" void popcorn_request_home_call(long A0, long A1, long A2, long A3, long A4, long A5,
                                          long Function) {
  NodeState &N = node();
  N.HomeCall = uint64_t(Function);
  int64_t Args[6] = {A0, A1, A2, A3, A4, A5};
  for (int I = 0; I < 6; I++)
    N.HomeCallArgs[I] = Args[I];
  N.Requested = true;
  N.RequestedNode = 0;
}

namespace popcorn {

// Every wrapped function takes at most six arguments, in registers; one
// that takes fewer ignores the others.  An int result is the low half of
// the register, which is what the program reads.
uint64_t runHomeCall(uint64_t Function, const int64_t *Args) {
  using AnyCall = uint64_t (*)(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t);
  return reinterpret_cast<AnyCall>(Function)(Args[0], Args[1], Args[2], Args[3], Args[4], Args[5]);
}

} // namespace popcorn
