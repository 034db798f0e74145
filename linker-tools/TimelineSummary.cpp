//===- TimelineSummary.cpp - popcorn-inspect trace's tables ---------------===//
#include "Timeline.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace popcorn {
namespace {

// Microseconds, in a unit that keeps three significant digits readable.
std::string duration(double Us) {
  char Text[32];
  if (Us >= 1e6)
    snprintf(Text, sizeof Text, "%.3f s", Us / 1e6);
  else if (Us >= 1e3)
    snprintf(Text, sizeof Text, "%.3f ms", Us / 1e3);
  else
    snprintf(Text, sizeof Text, "%.1f us", Us);
  return Text;
}

// Nearest-rank percentile of durations.
double percentile(std::vector<double> &Sorted, double P) {
  size_t Rank = size_t(std::ceil(P / 100 * double(Sorted.size())));
  return Sorted[std::max<size_t>(Rank, 1) - 1];
}

class Table {
public:
  explicit Table(raw_ostream &OS) : OS(OS) {}
  void heading(StringRef Title, StringRef Columns) {
    OS << "\n" << left_justify(Title, 28) << Columns << "\n";
  }
  // A row of count, median and p99 of Durations.
  void latencies(StringRef Label, std::vector<double> Durations, StringRef Extra = "") {
    llvm::sort(Durations);
    OS << "  " << left_justify(Label, 26) << format("%7zu", Durations.size());
    if (!Durations.empty())
      OS << right_justify(duration(percentile(Durations, 50)), 12)
         << right_justify(duration(percentile(Durations, 99)), 12);
    OS << Extra << "\n";
  }

private:
  raw_ostream &OS;
};

} // namespace

void printTimelineSummary(const Timeline &T, StringRef Path, raw_ostream &OS) {
  OS << "trace " << Path << ": " << T.NodeNames.size() << " nodes, " << duration(T.End);
  if (T.Dropped)
    OS << ", " << T.Dropped << " events dropped (buffers full): counts are low";
  OS << "\n";
  OS << "migrations: " << T.Migrations.size() << ", page faults: " << T.Faults.size()
     << ", forwarded system calls: " << T.Calls.size() << "\n";
  Table Out(OS);

  Out.heading("migrations", "  count      median         p99");
  // Each direction with its own phases: a rewrite into aarch64's layout
  // at home and one out of it under qemu-aarch64 differ by far.
  std::map<std::pair<int, int>, std::vector<const Migration *>> ByDirection;
  std::vector<double> All;
  for (const Migration &M : T.Migrations) {
    ByDirection[{M.From, M.To}].push_back(&M);
    All.push_back(M.Duration);
  }
  for (const auto &[Direction, Moves] : ByDirection) {
    std::vector<double> Durations;
    std::vector<uint64_t> Frames;
    std::map<std::string, std::vector<double>> ByPhase;
    for (const Migration *M : Moves) {
      Durations.push_back(M->Duration);
      Frames.push_back(M->Frames);
      for (const auto &[Name, S] : M->Phases)
        ByPhase[Name].push_back(S.Duration);
    }
    llvm::sort(Frames);
    Out.latencies(std::to_string(Direction.first) + " -> " + std::to_string(Direction.second) +
                      (Direction.second == 0 ? " (home)" : ""),
                  Durations, "   " + std::to_string(Frames[Frames.size() / 2]) + " frames");
    for (const char *Phase : {"rewrite", "transfer", "resume"})
      if (ByPhase.count(Phase))
        Out.latencies(std::string("  ") + Phase, ByPhase[Phase]);
  }
  Out.latencies("all", All);

  Out.heading("page faults (requests)", "  count      median         p99");
  std::map<int, std::vector<double>> FaultsByNode;
  std::vector<double> AllFaults;
  for (const PageFault &F : T.Faults) {
    FaultsByNode[F.Node].push_back(F.Duration);
    AllFaults.push_back(F.Duration);
  }
  for (const auto &[Node, Durations] : FaultsByNode)
    Out.latencies(T.nodeName(Node), Durations);
  Out.latencies("all", AllFaults);

  Out.heading("forwarded system calls", "  count      median         p99");
  std::map<std::string, std::vector<double>> ByCall;
  std::vector<double> AllCalls;
  for (const SystemCall &C : T.Calls) {
    ByCall[C.Name].push_back(C.Duration);
    AllCalls.push_back(C.Duration);
  }
  for (const auto &[Name, Durations] : ByCall)
    Out.latencies(Name, Durations);
  Out.latencies("all", AllCalls);

  OS << "\n" << left_justify("time per node", 28) << "       time   share\n";
  std::map<int, double> Time;
  double Migrating = 0;
  for (const TimeSlice &S : T.Running)
    Time[S.Node] += S.Duration;
  for (const Migration &M : T.Migrations)
    Migrating += M.Duration;
  double Total = Migrating;
  for (const auto &[Node, Us] : Time)
    Total += Us;
  auto Row = [&](StringRef Label, double Us) {
    OS << "  " << left_justify(Label, 26) << right_justify(duration(Us), 11)
       << format("  %5.1f%%", Total > 0 ? 100 * Us / Total : 0.0) << "\n";
  };
  for (const auto &[Node, Us] : Time)
    Row(T.nodeName(Node), Us);
  Row("migrating", Migrating);
}

} // namespace popcorn
