//===- LinkMap.cpp - The input sections of a link, from lld's map ---------===//
//
// lld's map has one line per output section, input section and symbol:
//
//   VMA LMA Size Align Out
//                          In            (8 more columns of indent)
//                                  Symbol (16 more)
//
// Only output and input section lines matter here.
//
//===----------------------------------------------------------------------===//
#include "LinkMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace popcorn {

static Error mapError(StringRef MapName, unsigned Line, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           MapName + ":" + Twine(Line) + ": " + What);
}

// "/dir/libc.a(vfprintf.lo):(.text.printf_core)" -> libc.a(vfprintf.lo), .text.printf_core
static bool splitInput(StringRef In, std::string &File, std::string &Section) {
  size_t Colon = In.rfind(":(");
  if (Colon == StringRef::npos || !In.ends_with(")"))
    return false;
  StringRef Path = In.substr(0, Colon);
  StringRef Name = In.substr(Colon + 2).drop_back();
  Name = Name.substr(0, Name.find('+')); // .eh_frame+0x14: a piece of .eh_frame
  size_t Paren = Path.find('(');
  if (Paren != StringRef::npos)
    File = (sys::path::filename(Path.substr(0, Paren)) + Path.substr(Paren)).str();
  else
    File = std::string(Path == "<internal>" ? Path : sys::path::filename(Path));
  Section = Name.str();
  return true;
}

Expected<std::vector<MappedSection>> parseLinkMap(StringRef Text, StringRef MapName) {
  std::vector<MappedSection> Sections;
  std::string Output;
  unsigned LineNo = 0;
  for (StringRef Line : split(Text, '\n')) {
    ++LineNo;
    if (LineNo == 1 || Line.trim().empty())
      continue; // the column header
    uint64_t Fields[4];
    StringRef Rest = Line;
    for (int F = 0; F < 4; ++F) {
      Rest = Rest.ltrim();
      StringRef Word = Rest.take_until([](char C) { return C == ' '; });
      if (Word.getAsInteger(F == 3 ? 10 : 16, Fields[F]))
        return mapError(MapName, LineNo, "not a line of an lld map: '" + Line + "'");
      Rest = Rest.drop_front(Word.size());
    }
    if (!Rest.consume_front(" "))
      return mapError(MapName, LineNo, "not a line of an lld map: '" + Line + "'");
    size_t Indent = Rest.size() - Rest.ltrim().size();
    Rest = Rest.ltrim();
    if (Indent == 0) {
      Output = Rest.str();
      continue;
    }
    if (Indent == 16) {
      // A symbol of the last input section.  Mapping symbols ($x, $d) and
      // local labels name no object.
      if (!Sections.empty() && Fields[0] == Sections.back().Address && !Rest.starts_with("$") &&
          !Rest.starts_with(".L"))
        Sections.back().Symbols.push_back(Rest.str());
      continue;
    }
    if (Indent != 8)
      return mapError(MapName, LineNo, "unexpected indentation: '" + Line + "'");
    MappedSection S;
    if (!splitInput(Rest, S.File, S.Section))
      return mapError(MapName, LineNo, "unexpected input section '" + Rest + "'");
    if (Fields[0] == 0)
      continue; // not allocated (.comment, .symtab, debug info)
    if (!Sections.empty() && Sections.back().File == S.File &&
        Sections.back().Section == S.Section && Sections.back().OutputSection == Output) {
      // Another piece of the same input section (.eh_frame).
      Sections.back().Size = Fields[0] + Fields[2] - Sections.back().Address;
      continue;
    }
    S.OutputSection = Output;
    S.Address = Fields[0];
    S.Size = Fields[2];
    S.Align = Fields[3];
    Sections.push_back(std::move(S));
  }
  return Sections;
}

} // namespace popcorn
