//===- TimelineSvg.cpp - popcorn-inspect trace --svg ----------------------===//
//
// One lane per node.  The upper band shows where the thread is: running
// (the node's color) or migrating (on the departing node's lane: rewrite,
// transfer, resume).  Below it, a tick per page fetched and per forwarded
// system call, at most one per pixel so that long traces stay small.
//
//===----------------------------------------------------------------------===//
#include "Timeline.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include <cmath>
#include <set>

using namespace llvm;

namespace popcorn {
namespace {

constexpr double Width = 1000, Left = 170, Right = 20, Top = 48, LaneHeight = 64;
constexpr const char *NodeColors[] = {"#9ecae1", "#a1d99b", "#fdd0a2", "#dadaeb",
                                      "#fcbba1", "#c7e9c0", "#d9d9d9", "#fde0ef"};

std::string escape(StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  }
  return Out;
}

std::string micros(double Us) {
  char Text[32];
  if (Us >= 1e3)
    snprintf(Text, sizeof Text, "%.3f ms", Us / 1e3);
  else
    snprintf(Text, sizeof Text, "%.1f us", Us);
  return Text;
}

class Picture {
public:
  Picture(const Timeline &T, raw_ostream &OS) : T(T), OS(OS) {
    int Lane = 0;
    for (const auto &[Node, Name] : T.NodeNames)
      Lanes[Node] = Lane++;
    Scale = (Width - Left - Right) / (T.End > 0 ? T.End : 1);
    Height = Top + LaneHeight * Lanes.size() + 40;
  }

  void draw(StringRef Path) {
    OS << format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"12\">\n",
                 Width, Height);
    OS << "<title>popcorn trace " << escape(Path) << "</title>\n";
    OS << format("<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", Width, Height);
    OS << "<text x=\"10\" y=\"18\" font-weight=\"bold\">" << escape(Path) << ": "
       << T.Migrations.size() << " migrations, " << T.Faults.size() << " page faults, "
       << T.Calls.size() << " forwarded system calls</text>\n";
    legend();
    for (const auto &[Node, Lane] : Lanes)
      lane(Node, Lane);
    for (const TimeSlice &S : T.Running)
      box(S, bandY(S.Node), 20, NodeColors[S.Node & 7],
          "running on " + T.nodeName(S.Node) + ": " + micros(S.Duration));
    for (const Migration &M : T.Migrations)
      migration(M);
    std::set<std::pair<int, long>> Drawn;
    for (const PageFault &F : T.Faults)
      tick(F, 28, "#6a3d9a", Drawn,
           "page 0x" + utohexstr(F.Address, true) + " fetched in " + micros(F.Duration));
    for (const SystemCall &C : T.Calls)
      tick(C, 42, "#8c510a", Drawn, C.Name + " forwarded, " + micros(C.Duration));
    axis();
    OS << "</svg>\n";
  }

private:
  double x(double Us) const { return Left + Us * Scale; }
  double laneY(int Node) const { return Top + LaneHeight * Lanes.at(Node); }
  double bandY(int Node) const { return laneY(Node) + 6; }

  void legend() {
    struct Item {
      const char *Color, *Label;
    } Items[] = {{NodeColors[0], "running"},  {"#d62728", "rewrite"},  {"#ff7f0e", "transfer"},
                 {"#2ca02c", "resume"},    {"#6a3d9a", "page fault"},
                 {"#8c510a", "forwarded call"}};
    double X = Left;
    for (const Item &I : Items) {
      OS << format("<rect x=\"%.1f\" y=\"27\" width=\"10\" height=\"10\" fill=\"%s\"/>", X,
                   I.Color)
         << format("<text x=\"%.1f\" y=\"36\">%s</text>\n", X + 14, I.Label);
      X += 24 + 7.5 * strlen(I.Label);
    }
  }

  void lane(int Node, int Lane) {
    double Y = laneY(Node);
    OS << format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                 Left, Y, Width - Left - Right, LaneHeight - 4,
                 static_cast<const char *>(Lane % 2 ? "#f7f7f7" : "#ececec"));
    OS << format("<text x=\"8\" y=\"%.1f\">", Y + 20) << escape(T.nodeName(Node))
       << "</text>\n";
    OS << format("<text x=\"8\" y=\"%.1f\" font-size=\"10\" fill=\"#555\">faults, calls</text>\n",
                 Y + 44);
  }

  void box(const TimeSlice &S, double Y, double H, StringRef Color, const std::string &Title) {
    if (!Lanes.count(S.Node))
      return;
    double W = std::max(S.Duration * Scale, 0.5);
    OS << format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
                 x(S.Start), Y, W, H, Color.str().c_str())
       << "<title>" << escape(Title) << "</title></rect>\n";
  }

  void migration(const Migration &M) {
    std::string Title = "migration " + std::to_string(M.From) + " -> " + std::to_string(M.To) +
                        ": " + micros(M.Duration) + ", " + std::to_string(M.Frames) +
                        " frames, " + std::to_string(M.Bytes) + " bytes";
    box(M, bandY(M.Node), 20, "#444444", Title);
    for (const auto &[Name, S] : M.Phases) {
      StringRef Color = Name == "rewrite"    ? "#d62728"
                        : Name == "transfer" ? "#ff7f0e"
                                             : "#2ca02c";
      box(S, bandY(S.Node), 20, Color, Name + " (" + Title + "): " + micros(S.Duration));
    }
  }

  void tick(const TimeSlice &S, double Offset, StringRef Color,
            std::set<std::pair<int, long>> &Drawn, const std::string &Title) {
    if (!Lanes.count(S.Node) ||
        !Drawn.insert({S.Node * 2 + (Offset > 30), std::lround(x(S.Start))}).second)
      return;
    double Y = laneY(S.Node) + Offset;
    OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\">",
                 x(S.Start), Y, x(S.Start), Y + 10, Color.str().c_str())
       << "<title>" << escape(Title) << "</title></line>\n";
  }

  // Ticks at 1, 2 or 5 times a power of ten, five to twelve of them.
  void axis() {
    double Y = Top + LaneHeight * Lanes.size() + 4;
    OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                 Left, Y, Width - Right, Y);
    double Span = T.End > 0 ? T.End : 1;
    double Base = std::pow(10, std::floor(std::log10(Span / 8))), Step = Base;
    for (double Factor : {2.0, 5.0, 10.0})
      if (Span / (Base * Factor) >= 5)
        Step = Base * Factor;
    bool Ms = Span >= 2000;
    for (double Us = 0; Us <= Span + Step / 1000; Us += Step) {
      OS << format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>",
                   x(Us), Y, x(Us), Y + 5)
         << format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x(Us),
                   Y + 18, Ms ? Us / 1000 : Us);
    }
    OS << format("<text x=\"8\" y=\"%.1f\">time (%s)</text>\n", Y + 18, static_cast<const char *>(Ms ? "ms" : "us"));
  }

  const Timeline &T;
  raw_ostream &OS;
  std::map<int, int> Lanes;
  double Scale, Height;
};

} // namespace

void writeTimelineSvg(const Timeline &T, StringRef Path, raw_ostream &OS) {
  Picture(T, OS).draw(Path);
}

} // namespace popcorn
