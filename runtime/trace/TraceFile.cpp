//===- TraceFile.cpp - Home writes the trace as Chrome trace-event JSON ---===//
//
// The file opens unchanged in Perfetto and chrome://tracing: one process
// per node, "pid" the node's number + 1 (Perfetto gives pid 0 a meaning of
// its own), a track for each of the program's threads that ran there,
// "tid" (node + 1) * 10^7 + the thread's tid at home (Perfetto tells
// threads apart by tid alone, and a thread's tracks on two nodes are two);
// complete events ("ph":"X") with "ts" and "dur" in microseconds from the
// start of the trace, nested by time on a track:
//
//   running         the thread runs on this node (arrival to departure
//                   or its end; at home, the main thread from the start,
//                   the others from their first return)
//   migrate A -> B  on A's track: rewrite (A), transfer (A sending), resume
//                   (B receiving the rest and continuing), back to back
//   page fault      on the faulting node: request to page mapped
//   <call name>     a forwarded system call on the calling node
//
// Written with raw system calls and numbers formatted here: exit may come
// from a remote node's Exit message, with the program's memory not home.
//
//===----------------------------------------------------------------------===//
#include "link/SyscallTable.h"
#include "support/Report.h"
#include "trace/Trace.h"

namespace popcorn {
namespace {

#if defined(__x86_64__)
constexpr long Openat = 257;
#else
constexpr long Openat = 56;
#endif

// JSON text into a fixed buffer, written out whenever it fills.
class JsonFile {
public:
  explicit JsonFile(int Fd) : Fd(Fd), Buf(sys::mapPrivate(BufBytes)) {}
  ~JsonFile() { flush(); }
  bool ok() const { return Buf && !Failed; }

  JsonFile &operator<<(const char *S) {
    while (*S)
      put(*S++);
    return *this;
  }
  JsonFile &operator<<(uint64_t V) {
    char Digits[21];
    decimalDigits(V, Digits);
    return *this << Digits;
  }
  JsonFile &operator<<(int V) { return *this << uint64_t(V); }
  // Nanoseconds as microseconds with three decimals: trace-event units.
  JsonFile &micros(uint64_t Ns) {
    *this << Ns / 1000;
    put('.');
    uint64_t Fraction = Ns % 1000;
    put(char('0' + Fraction / 100));
    put(char('0' + Fraction / 10 % 10));
    put(char('0' + Fraction % 10));
    return *this;
  }
  JsonFile &hexString(uint64_t V) {
    char Digits[19];
    hexDigits(V, Digits);
    return *this << "\"" << Digits << "\"";
  }

  void flush() {
    for (uint64_t Done = 0; Buf && !Failed && Done < Used;) {
      long N = sys::call6(sys::Write, Fd, long(Buf + Done), long(Used - Done));
      if (N == -4) // EINTR
        continue;
      if (N <= 0)
        Failed = true;
      else
        Done += uint64_t(N);
    }
    Used = 0;
  }

private:
  static constexpr uint64_t BufBytes = 1 << 16;
  void put(char C) {
    if (!Buf)
      return;
    if (Used == BufBytes)
      flush();
    Buf[Used++] = uint8_t(C);
  }
  int Fd;
  uint8_t *Buf;
  uint64_t Used = 0;
  bool Failed = false;
};

// Events by start time, in place: no heap at exit.
void sortByStart(TraceEvent *E, uint64_t N) {
  auto SiftDown = [E](uint64_t Root, uint64_t End) {
    for (uint64_t Child; (Child = 2 * Root + 1) < End; Root = Child) {
      if (Child + 1 < End && E[Child].Start < E[Child + 1].Start)
        Child++;
      if (!(E[Root].Start < E[Child].Start))
        return;
      TraceEvent T = E[Root];
      E[Root] = E[Child];
      E[Child] = T;
    }
  };
  for (uint64_t I = N / 2; I-- > 0;)
    SiftDown(I, N);
  for (uint64_t End = N; End-- > 1;) {
    TraceEvent T = E[0];
    E[0] = E[End];
    E[End] = T;
    SiftDown(0, End);
  }
}

class TraceWriter {
public:
  TraceWriter(JsonFile &Out, uint64_t Base) : Out(Out), Base(Base) {}

  void metadata(int Node, uint64_t Track, const char *What, const char *Key) {
    separate();
    Out << "{\"name\":\"" << What << "\",\"ph\":\"M\",\"pid\":" << Node + 1
        << ",\"tid\":" << Track << ",\"args\":{\"" << Key << "\":";
  }
  void nodeNames(const bool *Used) {
    const NodeState &N = node();
    for (int I = 0; I < N.NodeCount; I++) {
      if (!Used[I])
        continue;
      const char *Isa = isaName(N.Nodes[I].Machine);
      metadata(I, I + 1, "process_name", "name");
      Out << "\"node " << I << " (" << (Isa ? Isa : "unknown") << (I == 0 ? ", home" : "")
          << ")\"}}";
      metadata(I, I + 1, "process_sort_index", "sort_index");
      Out << I << "}}";
    }
  }

  // Opens a complete event on Thread's track of Node; its arguments
  // follow, then close().
  void slice(const char *Name, const char *Category, int Node, uint32_t Thread, uint64_t Start,
             uint64_t End) {
    uint64_t From = Start > Base ? Start - Base : 0, To = End > Base ? End - Base : 0;
    uint64_t Track = uint64_t(Node + 1) * 10000000 + Thread;
    nameTrack(Node, Thread, Track);
    separate();
    Out << "{\"name\":\"" << Name << "\",\"cat\":\"" << Category << "\",\"ph\":\"X\",\"pid\":"
        << Node + 1 << ",\"tid\":" << Track << ",\"ts\":";
    Out.micros(From) << ",\"dur\":";
    Out.micros(To > From ? To - From : 0) << ",\"args\":{";
  }
  void close() { Out << "}}"; }

  void running(int Node, uint32_t Thread, uint64_t Start, uint64_t End) {
    slice("running", "thread", Node, Thread, Start, End);
    Out << "\"node\":" << Node << ",\"thread\":" << uint64_t(Thread);
    close();
  }

  // Leave's phases on the source's track; the destination's resume (if
  // recorded) starts when the source is done sending.
  void migration(const TraceEvent &Leave, const TraceEvent *Arrive) {
    uint64_t End = Arrive && Arrive->End > Leave.End ? Arrive->End : Leave.End;
    char Name[32] = "migrate ";
    unsigned N = 8;
    Name[N++] = char('0' + Leave.Node);
    for (const char *S = " -> "; *S;)
      Name[N++] = *S++;
    Name[N++] = char('0' + Leave.Peer);
    Name[N] = 0;
    slice(Name, "migration", Leave.Node, Leave.Thread, Leave.Start, End);
    Out << "\"from\":" << int(Leave.Node) << ",\"to\":" << int(Leave.Peer)
        << ",\"frames\":" << uint64_t(Leave.Count) << ",\"bytes\":" << Leave.Value;
    close();
    slice("rewrite", "migration-phase", Leave.Node, Leave.Thread, Leave.Start, Leave.Middle);
    Out << "\"frames\":" << uint64_t(Leave.Count);
    close();
    slice("transfer", "migration-phase", Leave.Node, Leave.Thread, Leave.Middle, Leave.End);
    Out << "\"bytes\":" << Leave.Value;
    close();
    if (Arrive) {
      slice("resume", "migration-phase", Leave.Node, Leave.Thread, Leave.End, End);
      Out << "\"node\":" << int(Arrive->Node);
      close();
    }
  }

  void pageFault(const TraceEvent &E) {
    slice("page fault", "page-fault", E.Node, E.Thread, E.Start, E.End);
    Out << "\"address\":";
    Out.hexString(E.Value) << ",\"node\":" << int(E.Node);
    close();
  }

  void syscall(const TraceEvent &E) {
    const char *Name = E.Value < SyscallRowCount ? SyscallRows[E.Value].Name : "syscall";
    slice(Name, "syscall", E.Node, E.Thread, E.Start, E.End);
    Out << "\"call\":\"" << Name << "\",\"node\":" << int(E.Node);
    close();
  }

private:
  void separate() {
    Out << (First ? "\n" : ",\n");
    First = false;
  }
  // The first slice of a track names it.
  void nameTrack(int Node, uint32_t Thread, uint64_t Track) {
    for (unsigned I = 0; I < NamedCount; I++)
      if (Named[I] == Track)
        return;
    if (NamedCount == MaxNamed)
      return; // unnamed: Perfetto shows the tid
    Named[NamedCount++] = Track;
    metadata(Node, Track, "thread_name", "name");
    Out << "\"thread " << uint64_t(Thread) << "\"}}";
    metadata(Node, Track, "thread_sort_index", "sort_index");
    Out << uint64_t(Thread) << "}}";
  }
  static constexpr unsigned MaxNamed = 256;
  JsonFile &Out;
  uint64_t Base;
  bool First = true;
  uint64_t Named[MaxNamed];
  unsigned NamedCount = 0;
};

// Where one thread is between its events: its stays are the spans
// between one migration's arrival and the next departure.
struct ThreadTrail {
  uint32_t Thread;
  int Here;
  uint64_t Since; // 0: not known (a thread made after the start)
  const TraceEvent *Leaving;
};

// The events in time order, each thread's trail followed on its own.
void writeEvents(TraceWriter &W, TraceBuffer &B, uint64_t Now) {
  sortByStart(B.Events, B.Count);
  constexpr unsigned MaxThreads = 256;
  ThreadTrail *Trails = reinterpret_cast<ThreadTrail *>(
      sys::mapPrivate(MaxThreads * sizeof(ThreadTrail)));
  ThreadTrail Spare; // threads beyond the table: no running slices
  unsigned Count = 0;
  uint32_t Main = uint32_t(sys::call6(sys::Getpid, 0));
  auto trailOf = [&](uint32_t Thread) -> ThreadTrail & {
    for (unsigned I = 0; I < Count; I++)
      if (Trails[I].Thread == Thread)
        return Trails[I];
    if (!Trails || Count == MaxThreads) {
      Spare = {Thread, 0, 0, nullptr};
      return Spare;
    }
    Trails[Count] = {Thread, 0, Thread == Main ? B.StartTime : 0, nullptr};
    return Trails[Count++];
  };
  for (uint64_t I = 0; I < B.Count; I++) {
    const TraceEvent &E = B.Events[I];
    switch (E.Kind) {
    case TraceKind::Leave: {
      ThreadTrail &T = trailOf(E.Thread);
      if (T.Leaving) // its arrival was dropped
        W.migration(*T.Leaving, nullptr);
      if (T.Since)
        W.running(E.Node, E.Thread, T.Since, E.Start);
      T.Leaving = &E;
      break;
    }
    case TraceKind::Arrive: {
      ThreadTrail &T = trailOf(E.Thread);
      if (T.Leaving)
        W.migration(*T.Leaving, &E);
      T.Leaving = nullptr;
      T.Here = E.Node;
      T.Since = E.End;
      break;
    }
    case TraceKind::ThreadEnd: {
      ThreadTrail &T = trailOf(E.Thread);
      if (T.Since && !T.Leaving)
        W.running(T.Here, E.Thread, T.Since, E.Start);
      T.Since = 0;
      break;
    }
    case TraceKind::PageFault:
      W.pageFault(E);
      break;
    case TraceKind::Syscall:
      W.syscall(E);
      break;
    }
  }
  bool MainSeen = false;
  for (unsigned I = 0; I < Count; I++) {
    ThreadTrail &T = Trails[I];
    MainSeen |= T.Thread == Main;
    if (T.Leaving)
      W.migration(*T.Leaving, nullptr);
    else if (T.Since)
      W.running(T.Here, T.Thread, T.Since, Now);
  }
  if (!MainSeen) // it never moved: home all along
    W.running(0, Main, B.StartTime, Now);
  if (Trails)
    sys::call6(sys::Munmap, long(Trails), MaxThreads * sizeof(ThreadTrail));
}

} // namespace

void writeTraceFile() {
  NodeState &N = node();
  if (!N.Trace || N.Remote)
    return;
  TraceBuffer &B = *N.Trace;
  N.Trace = nullptr; // once, and nothing more is recorded
  uint64_t Now = traceClock();
  long Fd = sys::call6(Openat, -100 /* AT_FDCWD */, long(B.Path),
                       01 | 0100 | 01000 | 02000000 /* O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC */,
                       0644);
  if (sys::failed(Fd)) {
    Line() << "popcorn: POPCORN_TRACE: cannot create " << B.Path;
    return;
  }
  bool Used[MaxNodes] = {true};
  for (uint64_t I = 0; I < B.Count; I++)
    if (B.Events[I].Node < MaxNodes)
      Used[B.Events[I].Node] = true;
  uint64_t Dropped = 0;
  for (uint64_t D : B.Dropped)
    Dropped += D;
  {
    JsonFile Out{int(Fd)};
    TraceWriter W(Out, B.StartTime);
    Out << "{\"traceEvents\":[";
    W.nodeNames(Used);
    writeEvents(W, B, Now);
    Out << "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{\"producer\":\"popcorn\","
           "\"clock\":\"CLOCK_REALTIME\",\"start_us\":"
        << B.StartTime / 1000 << ",\"dropped_events\":" << Dropped << ",\"dropped_by_node\":[";
    for (int I = 0; I < N.NodeCount; I++)
      Out << (I ? "," : "") << B.Dropped[I];
    Out << "]}}\n";
    Out.flush();
    if (!Out.ok())
      Line() << "popcorn: POPCORN_TRACE: cannot write " << B.Path;
  }
  sys::call6(sys::Close, Fd);
  if (Dropped)
    Line() << "popcorn: POPCORN_TRACE: " << Dropped << " events did not fit and are missing";
}

} // namespace popcorn
