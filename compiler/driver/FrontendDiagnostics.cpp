//===- FrontendDiagnostics.cpp - clang's refusals in popcorn's words ------===//
#include "FrontendDiagnostics.h"
#include "IsaMacros.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include <optional>

using namespace llvm;

namespace popcorn {

// Where a compiler finds headers that are not its own: the build machine's,
// for the build machine's libraries.
static const char *const HostIncludeDirs[] = {"/usr/local/include", "/usr/include"};

// Prefixes of clang's builtins for one ISA.  The aarch64 ones reach the
// plugin as intrinsics; the others are unknown to an aarch64 front end.
static const char *const IsaBuiltinPrefixes[] = {"__builtin_ia32_", "__builtin_arm_",
                                                 "__builtin_aarch64_", "__builtin_neon_",
                                                 "__builtin_sve_"};

static std::string withoutColors(StringRef Line) {
  std::string Plain;
  while (!Line.empty()) {
    size_t Escape = Line.find("\x1b[");
    Plain += Line.take_front(Escape);
    if (Escape == StringRef::npos)
      break;
    Line = Line.drop_front(Escape);
    Line = Line.drop_front(std::min(Line.find('m') + 1, Line.size()));
  }
  return Plain;
}

namespace {
struct Diagnostic {
  std::string Where;   // FILE:LINE
  std::string Message; // without its [-Wflag]
};
} // namespace

static std::optional<Diagnostic> parseError(StringRef Plain) {
  static const Regex Error("^(.+:[0-9]+):[0-9]+: (fatal )?error: (.*[^]])( \\[-W[^]]*\\])?$");
  SmallVector<StringRef, 5> Match;
  if (!Error.match(Plain, &Match))
    return std::nullopt;
  return Diagnostic{Match[1].str(), Match[3].str()};
}

static bool isAboutAssembly(StringRef Message) {
  return Message == "GNU-style inline assembly is disabled" || Message.contains(" in asm") ||
         Message.contains("inline asm") || Message.contains("asm operand") ||
         Message.contains("constraint '");
}

static std::optional<std::string> quoted(StringRef Message, StringRef Before) {
  size_t Start = Message.find(Before);
  if (Start == StringRef::npos)
    return std::nullopt;
  StringRef Rest = Message.drop_front(Start + Before.size());
  size_t End = Rest.find('\'');
  if (End == StringRef::npos)
    return std::nullopt;
  return Rest.take_front(End).str();
}

// What the front end says of a builtin it does not know: C has implicit
// declarations, C++ has none.
static const char *const UnknownNameMessages[] = {
    "use of unknown builtin '", "call to undeclared function '", "use of undeclared identifier '"};

static std::optional<std::string> isaBuiltinMessage(StringRef Message) {
  std::optional<std::string> Name;
  for (const char *Before : UnknownNameMessages)
    if (!Name)
      Name = quoted(Message, Before);
  if (!Name)
    return std::nullopt;
  for (const char *Prefix : IsaBuiltinPrefixes)
    if (StringRef(*Name).starts_with(Prefix))
      return "the ISA-specific builtin '" + *Name + "' cannot be compiled for every ISA";
  return std::nullopt;
}

// A header popcorn's sysroot lacks but the build machine has is a library's
// that was installed for the build machine: its code is compiled for one
// ISA, outside popcorn-clang, and cannot be linked into a program anyway.
static std::optional<std::string> hostHeaderMessage(StringRef Message) {
  if (!Message.consume_front("'") || !Message.consume_back("' file not found") ||
      Message.starts_with("/"))
    return std::nullopt;
  for (const char *Dir : HostIncludeDirs) {
    std::string Path = (Twine(Dir) + "/" + Message).str();
    if (sys::fs::exists(Path))
      return "'" + Message.str() + "' file not found: " + Path +
             " is the build machine's; build the library with popcorn-clang and give its "
             "headers with -I (every dependency of a program must be built with popcorn-clang)";
  }
  return std::nullopt;
}

static std::optional<std::string> popcornMessage(StringRef Message) {
  if (isAboutAssembly(Message))
    return std::string("inline assembly cannot be compiled for every ISA");
  if (std::optional<std::string> Builtin = isaBuiltinMessage(Message))
    return Builtin;
  return hostHeaderMessage(Message);
}

// The preprocessing directive of a line ("if", "error", ...) and what
// follows its name.
static std::optional<std::pair<StringRef, StringRef>> directive(StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("#"))
    return std::nullopt;
  Line = Line.ltrim();
  size_t End = std::min(Line.find_first_not_of("abcdefghijklmnopqrstuvwxyz"), Line.size());
  return std::make_pair(Line.take_front(End), Line.drop_front(End));
}

namespace {
struct IsaTest {
  std::string Macro;
  unsigned Line;
};
} // namespace

// The first ISA macro a condition names (isaMacros(), IsaMacros.h).
static std::optional<IsaTest> isaTest(StringRef Condition, unsigned Line) {
  while (!Condition.empty()) {
    Condition = Condition.drop_until([](char C) { return isAlpha(C) || C == '_'; });
    StringRef Name = Condition.take_while([](char C) { return isAlnum(C) || C == '_'; });
    if (namesIsa(Name))
      return IsaTest{Name.str(), Line};
    Condition = Condition.drop_front(Name.size());
  }
  return std::nullopt;
}

// The ISA test of the conditionals open at line Line (counted from 1):
// the first that tests an ISA's macro in any of its conditions so far.
static std::optional<IsaTest> enclosingIsaTest(ArrayRef<StringRef> Lines, unsigned Line) {
  SmallVector<std::optional<IsaTest>, 8> Open; // per open conditional
  for (unsigned I = 0; I + 1 < Line; ++I) {
    unsigned First = I + 1;
    std::string Logical = Lines[I].rtrim("\r").str();
    while (StringRef(Logical).ends_with("\\") && I + 2 < Line) {
      Logical.pop_back();
      Logical += Lines[++I].rtrim("\r");
    }
    std::optional<std::pair<StringRef, StringRef>> D = directive(Logical);
    if (!D)
      continue;
    if (D->first.starts_with("if"))
      Open.push_back(isaTest(D->second, First));
    else if (D->first.starts_with("elif") && !Open.empty() && !Open.back())
      Open.back() = isaTest(D->second, First);
    else if (D->first == "endif" && !Open.empty())
      Open.pop_back();
  }
  for (const std::optional<IsaTest> &Test : Open)
    if (Test)
      return Test;
  return std::nullopt;
}

// If line Line of Path is an #error directive that an ISA test encloses,
// that test: the #error is reached because popcorn-clang defines no ISA's
// macros.
static std::optional<IsaTest> isaTestAround(StringRef Path, unsigned Line) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Path);
  if (!Text)
    return std::nullopt;
  SmallVector<StringRef, 256> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  if (Line == 0 || Line > Lines.size())
    return std::nullopt;
  std::optional<std::pair<StringRef, StringRef>> Directive = directive(Lines[Line - 1]);
  if (!Directive || Directive->first != "error")
    return std::nullopt;
  return enclosingIsaTest(Lines, Line);
}

// The note after an #error that an ISA test led to: popcorn-clang's choice,
// and what to test instead.
static std::optional<std::string> isaNote(const Diagnostic &Error) {
  auto [Path, LineText] = StringRef(Error.Where).rsplit(':');
  unsigned Line = 0;
  if (LineText.getAsInteger(10, Line))
    return std::nullopt;
  std::optional<IsaTest> Test = isaTestAround(Path, Line);
  if (!Test)
    return std::nullopt;
  return Error.Where + ": note: popcorn-clang defines no ISA's macros, so " + Test->Macro +
         " (tested at line " + std::to_string(Test->Line) +
         ") is not defined: the program runs on every ISA; test __LP64__, __SIZEOF_POINTER__ "
         "or __BYTE_ORDER__ instead, or take the code's portable path\n";
}

// "N errors generated.", or "M warnings and N errors generated.", less Dropped.
static std::string withFewerErrors(StringRef Line, unsigned Dropped) {
  static const Regex Summary("([0-9]+) errors? generated\\.");
  SmallVector<StringRef, 2> Match;
  std::string Plain = withoutColors(Line);
  if (Dropped == 0 || !Summary.match(Plain, &Match))
    return Line.str();
  unsigned Errors = 0;
  Match[1].getAsInteger(10, Errors);
  unsigned Left = Errors > Dropped ? Errors - Dropped : 0;
  return Summary.sub(std::to_string(Left) + (Left == 1 ? " error" : " errors") + " generated.",
                     Plain);
}

// Line with Message, and the [-Wflag] after it (a flag that no longer
// applies), replaced by Replacement; colors stay as they were.
static std::string replaceMessage(StringRef Line, StringRef Message, StringRef Replacement) {
  size_t At = Line.find(Message);
  StringRef After = Line.substr(At + Message.size());
  if (After.starts_with(" [-W"))
    After = After.drop_front(std::min(After.find(']') + 1, After.size()));
  return (Line.take_front(At) + Replacement + After).str();
}

std::string rewriteFrontendDiagnostics(StringRef Text) {
  SmallVector<StringRef, 32> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  StringSet<> AssemblyLines; // FILE:LINE already refused for its assembly
  unsigned Dropped = 0;
  bool Dropping = false; // the lines of a dropped diagnostic's excerpt
  std::string Note;       // for after the excerpt of the error before
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I];
    std::string Plain = withoutColors(Line);
    if (Dropping && StringRef(Plain).starts_with(" "))
      continue;
    Dropping = false;
    if (!StringRef(Plain).starts_with(" ")) {
      Out += Note;
      Note.clear();
    }
    std::string Rewritten = withFewerErrors(Line, Dropped);
    if (std::optional<Diagnostic> Error = parseError(Plain)) {
      if (std::optional<std::string> Message = popcornMessage(Error->Message)) {
        // clang refuses one asm statement once for being assembly and again
        // for each operand aarch64 does not know.
        if (isAboutAssembly(Error->Message) && !AssemblyLines.insert(Error->Where).second) {
          ++Dropped;
          Dropping = true;
          continue;
        }
        Rewritten = replaceMessage(Line, Error->Message, *Message);
      } else if (std::optional<std::string> IsaNote = isaNote(*Error)) {
        Note = *IsaNote;
      }
    }
    Out += Rewritten;
    if (I + 1 < Lines.size())
      Out += '\n';
  }
  return Out + Note;
}

} // namespace popcorn
