//===- Timeline.h - A popcorn trace file, read back --------------*- C++ -*-===//
//
// What `popcorn-inspect trace` reads from the Chrome trace-event JSON that
// the runtime writes with POPCORN_TRACE (runtime/trace/TraceFile.cpp): the
// thread's stays, its migrations with their phases, the pages remote
// nodes fetched and the system calls they forwarded.  Times are in
// microseconds from the start of the trace.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_LINKERTOOLS_TIMELINE_H
#define POPCORN_LINKERTOOLS_TIMELINE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace popcorn {

struct TimeSlice {
  int Node = 0; // whose track it is on
  double Start = 0, Duration = 0;
  double end() const { return Start + Duration; }
};

struct Migration : TimeSlice {
  int From = 0, To = 0;
  uint64_t Frames = 0, Bytes = 0;
  // Its phases (rewrite, transfer, resume), on the same track.
  std::vector<std::pair<std::string, TimeSlice>> Phases;
};

struct PageFault : TimeSlice {
  uint64_t Address = 0;
};

struct SystemCall : TimeSlice {
  std::string Name;
};

struct Timeline {
  std::map<int, std::string> NodeNames; // every node with events or a name
  std::vector<TimeSlice> Running;       // where the thread ran
  std::vector<Migration> Migrations;
  std::vector<PageFault> Faults;
  std::vector<SystemCall> Calls;
  uint64_t Dropped = 0;
  double End = 0; // the last event's end

  std::string nodeName(int Node) const;
};

/// Reads a trace file; the error names the file and what is wrong with it.
llvm::Expected<Timeline> readTimeline(llvm::StringRef Path);

/// The tables of `popcorn-inspect trace`.
void printTimelineSummary(const Timeline &T, llvm::StringRef Path, llvm::raw_ostream &OS);

/// One lane per node: stays and migrations as rectangles, page faults and
/// forwarded calls as ticks, a time axis.
void writeTimelineSvg(const Timeline &T, llvm::StringRef Path, llvm::raw_ostream &OS);

} // namespace popcorn

#endif
