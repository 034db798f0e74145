//===- Trace.h - A timeline of migrations, faults and forwarded calls -*- C++ -*-===//
//
// POPCORN_TRACE=FILE (home's environment) records what migration costs:
// each move's stack rewrite, transfer and resume, each page a remote node
// fetches and each system call it forwards.  Every node records its own
// events, timed by itself with CLOCK_REALTIME, into a fixed buffer in its
// node-private memory; a remote node sends its events home (a TraceEvents
// message) before the thread leaves it and before it ends the program.
// Home writes FILE at exit as Chrome trace-event JSON (TraceFile.cpp), a
// track for each thread on each node.
//
// Off, each hook costs one load of a node-private word and a branch.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_TRACE_H
#define POPCORN_RUNTIME_TRACE_H

#include "link/Channel.h"
#include "state/NodeState.h"

namespace popcorn {

enum class TraceKind : uint16_t {
  Leave = 1, // Start..Middle: stack rewrite, Middle..End: transfer
  Arrive,    // Start: the thread's message came, End: it resumes
  PageFault, // Start: page requested, End: page mapped; Value: address
  Syscall,   // Start: call sent, End: result back; Value: SyscallRows index
  ThreadEnd, // Start: a thread ends (at home, in pthread_exit)
};

// One event.  The same bytes on every ISA: remote nodes send theirs as
// they are.  Times are nanoseconds of CLOCK_REALTIME.
struct TraceEvent {
  uint64_t Start, Middle, End;
  uint64_t Value; // Leave: bytes sent
  uint32_t Count; // Leave: frames rewritten
  TraceKind Kind;
  uint8_t Node;   // the node that recorded it
  uint8_t Peer;   // Leave: the destination
  uint32_t Thread; // the program's thread: its tid at home
  uint32_t Pad;
};

// Node -> home: Count TraceEvents follow; Dropped did not fit this node's
// buffer since it last sent.
struct TraceEventsMessage {
  uint32_t Node;
  uint32_t Count;
  uint64_t Dropped;
};

struct TraceBuffer {
  uint64_t Capacity, Count;
  uint64_t Dropped[MaxNodes]; // per recording node
  uint64_t StartTime;         // home: when tracing began
  char Path[512];             // home: where the trace goes
  TraceEvent Events[];
};

/// Nanoseconds of CLOCK_REALTIME: the nodes of one machine agree on it.
uint64_t traceClock();

inline bool tracing() { return __builtin_expect(node().Trace != nullptr, 0); }

/// Appends E to this node's buffer, or counts it dropped.
void traceRecord(const TraceEvent &E);

/// Times one traced operation from its construction: mark() ends a first
/// phase, finish() records the event.  Does nothing while tracing is off.
class TraceSpan {
public:
  explicit TraceSpan(TraceKind Kind) : Kind(Kind), Start(tracing() ? traceClock() : 0) {}
  void mark() {
    if (Start)
      Middle = traceClock();
  }
  void finish(uint64_t Value = 0, uint32_t Count = 0, int Peer = 0) {
    if (Start)
      traceRecord({Start, Middle, traceClock(), Value, Count, Kind, uint8_t(node().Self),
                   uint8_t(Peer), uint32_t(homeTid()), 0});
  }

private:
  TraceKind Kind;
  uint64_t Start, Middle = 0;
};

/// Remote: starts recording (home's greeting asked for a trace).
void startTracing();

/// Remote: sends this node's events home and empties the buffer.
void sendTrace(Channel &Home);

/// Home: takes a TraceEvents message of Bytes from Link into the trace.
/// False if it is malformed or the link failed.
bool receiveTrace(Channel &Link, uint32_t Bytes);

/// Home: writes the trace file, if tracing (TraceFile.cpp).
void writeTraceFile();

} // namespace popcorn

#endif
