//===- TimelineReader.cpp - Chrome trace-event JSON to a Timeline ---------===//
//
// Accepts both trace-event layouts (an object with "traceEvents", or the
// bare array) and ignores event phases and categories popcorn does not
// write, so a trace merged with another tool's still reads.  What popcorn
// does write must be well formed: a bad event is an error, not a hole in
// the summary.
//
//===----------------------------------------------------------------------===//
#include "Files.h"
#include "Timeline.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include <algorithm>

using namespace llvm;

namespace popcorn {

std::string Timeline::nodeName(int Node) const {
  auto It = NodeNames.find(Node);
  return It != NodeNames.end() ? It->second : "node " + std::to_string(Node);
}

namespace {

class Reader {
public:
  Reader(StringRef Path) : Path(Path) {}

  Error read(const json::Value &Root, Timeline &T) {
    const json::Array *Events = Root.getAsArray();
    if (const json::Object *Top = Root.getAsObject()) {
      Events = Top->getArray("traceEvents");
      if (!Events)
        return fail("the top-level object has no \"traceEvents\" array");
      if (const json::Object *Other = Top->getObject("otherData"))
        if (std::optional<int64_t> Dropped = Other->getInteger("dropped_events"))
          T.Dropped = uint64_t(*Dropped);
    }
    if (!Events)
      return fail("neither an object with \"traceEvents\" nor an array of events");
    for (size_t I = 0; I < Events->size(); ++I) {
      Index = I;
      if (Error E = readEvent((*Events)[I], T))
        return E;
    }
    return attachPhases(T);
  }

private:
  Error fail(const Twine &What) const {
    return createStringError(inconvertibleErrorCode(), Path + ": " + What);
  }
  Error failEvent(const Twine &What) const {
    return fail("event " + Twine(Index) + ": " + What);
  }

  Error readEvent(const json::Value &V, Timeline &T) {
    const json::Object *E = V.getAsObject();
    if (!E)
      return failEvent("not an object");
    std::optional<StringRef> Phase = E->getString("ph");
    if (!Phase)
      return failEvent("no \"ph\" string");
    if (*Phase == "M")
      return readMetadata(*E, T);
    if (*Phase != "X")
      return Error::success();
    std::optional<StringRef> Name = E->getString("name");
    std::optional<int64_t> Pid = E->getInteger("pid");
    std::optional<double> Ts = E->getNumber("ts"), Dur = E->getNumber("dur");
    if (!Name)
      return failEvent("a complete event (\"ph\":\"X\") without a \"name\" string");
    if (!Pid || *Pid < 1)
      return failEvent("\"" + *Name + "\" has no node (\"pid\", the node's number + 1)");
    if (!Ts || !Dur || *Dur < 0)
      return failEvent("\"" + *Name + "\" needs numbers \"ts\" and \"dur\" (dur >= 0)");
    TimeSlice S;
    S.Node = int(*Pid - 1);
    S.Start = *Ts;
    S.Duration = *Dur;
    T.End = std::max(T.End, S.end());
    if (!T.NodeNames.count(S.Node))
      T.NodeNames[S.Node] = "node " + std::to_string(S.Node);
    StringRef Category = E->getString("cat").value_or("");
    const json::Object *Args = E->getObject("args");
    auto Number = [&](StringRef Key) -> std::optional<int64_t> {
      return Args ? Args->getInteger(Key) : std::nullopt;
    };
    if (Category == "thread") {
      T.Running.push_back(S);
    } else if (Category == "migration") {
      std::optional<int64_t> From = Number("from"), To = Number("to");
      if (!From || !To)
        return failEvent("migration \"" + *Name + "\" has no \"from\" and \"to\" in \"args\"");
      Migration M;
      static_cast<TimeSlice &>(M) = S;
      M.From = int(*From);
      M.To = int(*To);
      M.Frames = uint64_t(Number("frames").value_or(0));
      M.Bytes = uint64_t(Number("bytes").value_or(0));
      T.Migrations.push_back(std::move(M));
    } else if (Category == "migration-phase") {
      Phases.push_back({Name->str(), S});
    } else if (Category == "page-fault") {
      std::optional<StringRef> Address = Args ? Args->getString("address") : std::nullopt;
      uint64_t Value = 0;
      if (!Address || Address->getAsInteger(0, Value))
        return failEvent("page fault without an \"address\" string in \"args\"");
      PageFault F;
      static_cast<TimeSlice &>(F) = S;
      F.Address = Value;
      T.Faults.push_back(F);
    } else if (Category == "syscall") {
      SystemCall C;
      static_cast<TimeSlice &>(C) = S;
      C.Name = Name->str();
      T.Calls.push_back(std::move(C));
    }
    return Error::success();
  }

  Error readMetadata(const json::Object &E, Timeline &T) {
    std::optional<int64_t> Pid = E.getInteger("pid");
    const json::Object *Args = E.getObject("args");
    if (E.getString("name") != StringRef("process_name"))
      return Error::success();
    std::optional<StringRef> Name = Args ? Args->getString("name") : std::nullopt;
    if (!Pid || *Pid < 1 || !Name)
      return failEvent("process_name without a \"pid\" and an \"args\".\"name\" string");
    T.NodeNames[int(*Pid - 1)] = Name->str();
    return Error::success();
  }

  // Each phase belongs to the migration on its track that contains it.
  Error attachPhases(Timeline &T) {
    llvm::sort(T.Migrations, [](const Migration &A, const Migration &B) {
      return std::make_pair(A.Node, A.Start) < std::make_pair(B.Node, B.Start);
    });
    for (auto &[Name, S] : Phases) {
      auto It = std::upper_bound(T.Migrations.begin(), T.Migrations.end(),
                                 std::make_pair(S.Node, S.Start),
                                 [](const std::pair<int, double> &Key, const Migration &M) {
                                   return Key < std::make_pair(M.Node, M.Start);
                                 });
      // Printed times have three decimals: allow for their rounding.
      constexpr double Slack = 0.002;
      if (It == T.Migrations.begin() || (--It)->Node != S.Node ||
          S.end() > It->end() + Slack)
        return fail("the " + Name + " phase at " + std::to_string(S.Start) + " us on node " +
                    Twine(S.Node) + " is not inside a migration");
      It->Phases.push_back({Name, S});
    }
    llvm::sort(T.Migrations,
               [](const Migration &A, const Migration &B) { return A.Start < B.Start; });
    llvm::sort(T.Running, [](const TimeSlice &A, const TimeSlice &B) { return A.Start < B.Start; });
    return Error::success();
  }

  StringRef Path;
  size_t Index = 0;
  std::vector<std::pair<std::string, TimeSlice>> Phases;
};

} // namespace

Expected<Timeline> readTimeline(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> File = readWholeFile(Path);
  if (!File)
    return File.takeError();
  Expected<json::Value> Root = json::parse((*File)->getBuffer());
  if (!Root)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": not JSON: " + toString(Root.takeError()));
  Timeline T;
  if (Error E = Reader(Path).read(*Root, T))
    return std::move(E);
  return T;
}

} // namespace popcorn
