//===- Trace.cpp - Recording trace events on every node -------------------===//
#include "trace/Trace.h"
#include "state/Settings.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include <stdlib.h>

namespace popcorn {

static_assert(sizeof(TraceEvent) == 48, "TraceEvent travels between ISAs as it is");

namespace {
// Home keeps every node's events until exit; a remote node only those of
// one stay, which it sends home when the thread leaves.
constexpr uint64_t HomeCapacity = uint64_t(1) << 20;
constexpr uint64_t RemoteCapacity = uint64_t(1) << 16;

TraceBuffer *mapTraceBuffer(uint64_t Capacity) {
  auto *B = reinterpret_cast<TraceBuffer *>(
      sys::mapPrivate(sizeof(TraceBuffer) + Capacity * sizeof(TraceEvent)));
  if (B)
    B->Capacity = Capacity;
  return B;
}

// The last of exit's handlers and destructors, as a schedule may move the
// thread in the program's own.  exit() may run on a remote node: the file
// is home's to write, and the remote node sends its events home when it
// ends the program.
__attribute__((destructor(POPCORN_BEFORE_STATIC_OBJECTS))) void writeTraceAtExit() {
  if (!node().Remote)
    writeTraceFile();
}

// Home: POPCORN_TRACE names the file.  Before main, so the first
// migration is recorded.
__attribute__((constructor(POPCORN_BEFORE_STATIC_OBJECTS))) void readTraceSetting() {
  const char *Path = setting(Setting::Trace);
  if (!Path || !*Path || node().Remote)
    return;
  TraceBuffer *B = mapTraceBuffer(HomeCapacity);
  uint64_t Length = __builtin_strlen(Path);
  if (!B || Length >= sizeof B->Path) {
    Line() << "popcorn: POPCORN_TRACE: no trace (no memory, or the path is too long)";
    return;
  }
  __builtin_memcpy(B->Path, Path, Length + 1);
  B->StartTime = traceClock();
  node().Trace = B;
}
} // namespace

uint64_t traceClock() {
  struct {
    int64_t Seconds, Nanoseconds;
  } Now = {0, 0};
  sys::call6(sys::ClockGettime, 0 /* CLOCK_REALTIME */, long(&Now));
  return uint64_t(Now.Seconds) * 1000000000 + uint64_t(Now.Nanoseconds);
}

void traceRecord(const TraceEvent &E) {
  TraceBuffer &B = *node().Trace;
  if (B.Count < B.Capacity)
    B.Events[B.Count++] = E;
  else
    B.Dropped[E.Node < MaxNodes ? E.Node : 0]++;
}

void startTracing() {
  if (!node().Trace)
    node().Trace = mapTraceBuffer(RemoteCapacity);
}

void sendTrace(Channel &Home) {
  NodeState &N = node();
  if (!N.Trace)
    return;
  TraceBuffer &B = *N.Trace;
  TraceEventsMessage M{uint32_t(N.Self), uint32_t(B.Count), B.Dropped[N.Self]};
  if (!Home.send2(MessageType::TraceEvents, &M, sizeof M, B.Events,
                  uint32_t(B.Count * sizeof(TraceEvent))))
    return; // the caller's next message finds the link gone
  B.Count = 0;
  B.Dropped[N.Self] = 0;
}

bool receiveTrace(Channel &Link, uint32_t Bytes) {
  TraceEventsMessage M;
  if (Bytes < sizeof M || !Link.receivePayload(&M, sizeof M) || M.Node >= MaxNodes ||
      M.Count > RemoteCapacity || Bytes - sizeof M != uint64_t(M.Count) * sizeof(TraceEvent))
    return false;
  TraceBuffer *B = node().Trace;
  if (!B)
    return Link.skip(Bytes - sizeof M);
  uint64_t Room = B->Capacity - B->Count;
  uint64_t Taken = M.Count < Room ? M.Count : Room;
  if (!Link.receivePayload(&B->Events[B->Count], Taken * sizeof(TraceEvent)) ||
      !Link.skip((M.Count - Taken) * sizeof(TraceEvent)))
    return false;
  // A node speaks for itself only.
  for (uint64_t I = B->Count; I < B->Count + Taken; I++)
    B->Events[I].Node = uint8_t(M.Node);
  B->Count += Taken;
  B->Dropped[M.Node] += M.Dropped + (M.Count - Taken);
  return true;
}

} // namespace popcorn
