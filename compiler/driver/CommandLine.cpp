//===- CommandLine.cpp - Parse a gcc-style command line -------------------===//
#include "CommandLine.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace popcorn {

static bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

static bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() && S.substr(S.size() - Suffix.size()) == Suffix;
}

// Front-end options whose value is the next argument when not attached.
static constexpr std::array<std::string_view, 13> FrontendWithValue = {
    "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-MF", "-MT", "-MQ", "-iprefix", "-isysroot"};

// Accepted and ignored: every popcorn program is a static, position-
// dependent executable that uses musl's built-in threads.
static constexpr std::array<std::string_view, 14> Ignored = {
    "-pthread", "-static", "-pipe",  "-fPIC",   "-fpic",   "-fPIE",   "-fpie",
    "-pie",     "-no-pie", "-rdynamic", "-m64", "-static-libgcc", "-fno-pic", "-fno-pie"};

static constexpr std::array<std::string_view, 11> InfoOptions = {
    "--help", "-h", "--version", "-dumpmachine", "-dumpversion", "-dumpfullversion",
    "-print-search-dirs", "-print-libgcc-file-name", "-print-multi-os-directory",
    "-print-multi-directory", "-print-multi-lib"};

// The target is every ISA at once: the front end always produces the
// canonical ISA's IR, which popcorn-llc lowers for each ISA.  Another target
// would give every ISA that target's types and calling conventions.
static const char *const TargetIsFixed =
    "popcorn-clang compiles for every ISA at once; the target cannot be chosen";

// -Xclang options that would make the front end target another ISA or CPU.
static bool choosesFrontendTarget(std::string_view Cc1Arg) {
  return startsWith(Cc1Arg, "-triple") || startsWith(Cc1Arg, "-target-") ||
         startsWith(Cc1Arg, "-aux-triple") || startsWith(Cc1Arg, "-aux-target-") ||
         startsWith(Cc1Arg, "-tune-cpu");
}

template <size_t N>
static bool isOneOf(std::string_view Arg, const std::array<std::string_view, N> &Set) {
  return std::find(Set.begin(), Set.end(), Arg) != Set.end();
}

// Options that only make sense for one ISA, or for code we cannot make
// migratable.  The reason is printed with the option.
static const char *whyUnsupported(std::string_view Arg) {
  if (Arg == "-shared" || startsWith(Arg, "-Wl,-shared"))
    return "shared libraries are not supported: popcorn programs are static executables";
  if (startsWith(Arg, "-march=") || startsWith(Arg, "-mcpu=") ||
      startsWith(Arg, "-mtune=") || startsWith(Arg, "-msse") ||
      startsWith(Arg, "-mavx") || startsWith(Arg, "-mfpu") ||
      startsWith(Arg, "-mno-"))
    return "is specific to one ISA and cannot apply to a multi-ISA program";
  if (startsWith(Arg, "-fsanitize") || startsWith(Arg, "-fprofile") ||
      startsWith(Arg, "-fcoverage") || Arg == "--coverage")
    return "instrumentation runtimes are not available for multi-ISA programs";
  if (startsWith(Arg, "-flto"))
    return "link-time optimization is not supported; each object is already optimized once for all ISAs";
  if (startsWith(Arg, "-fopenmp"))
    return "OpenMP is not supported";
  if (Arg == "-S")
    return "assembly output is per ISA; use -c (and popcorn-inspect to look at one ISA)";
  if (Arg == "-nostdlib" || Arg == "-nostartfiles" || Arg == "-nodefaultlibs")
    return "popcorn programs always link popcorn's musl and runtime";
  if (startsWith(Arg, "-m"))
    return "is specific to one ISA and cannot apply to a multi-ISA program";
  return nullptr;
}

// The suffixes clang and gcc take for C++ sources (.ii: preprocessed).
static constexpr std::array<std::string_view, 9> CxxSuffixes = {
    ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii", ".cppm"};

static bool hasCxxSuffix(std::string_view Path) {
  return std::any_of(CxxSuffixes.begin(), CxxSuffixes.end(),
                     [&](std::string_view Suffix) { return endsWith(Path, Suffix); });
}

static bool isCxxLanguage(std::string_view Language) {
  return Language == "c++" || Language == "c++-cpp-output";
}

bool isCxxSource(const Input &In, DriverMode Mode) {
  if (!In.Language.empty())
    return isCxxLanguage(In.Language);
  return hasCxxSuffix(In.Value) || (Mode == DriverMode::Cxx && endsWith(In.Value, ".c"));
}

static void addPositional(CommandLine &CL, const std::string &Arg,
                          const std::string &Language) {
  if (Arg == "-" || Language == "c" || Language == "cpp-output" || isCxxLanguage(Language) ||
      endsWith(Arg, ".c") || endsWith(Arg, ".i") || hasCxxSuffix(Arg)) {
    // The language goes to the front end with the file: "-x c" makes a
    // source of any name (configure compiles /dev/null and stdin).
    CL.Inputs.push_back({Input::Source, Arg, Language});
  } else if (endsWith(Arg, ".o") || endsWith(Arg, ".lo") || endsWith(Arg, ".obj")) {
    CL.Inputs.push_back({Input::Object, Arg});
  } else if (endsWith(Arg, ".a")) {
    CL.Inputs.push_back({Input::Archive, Arg});
  } else if ((endsWith(Arg, ".S") && Language.empty()) || Language == "assembler-with-cpp") {
    // Preprocessed first: assembly for an ISA chosen by its macros, none of
    // which popcorn defines, comes to nothing (Driver.cpp: compileSource).
    CL.Inputs.push_back({Input::Source, Arg, "assembler-with-cpp"});
  } else if (endsWith(Arg, ".s") || endsWith(Arg, ".asm") || Language == "assembler") {
    CL.Errors.push_back("'" + Arg + "': assembly is specific to one ISA and cannot be part of a multi-ISA program");
  } else if (endsWith(Arg, ".so") || Arg.find(".so.") != std::string::npos) {
    CL.Errors.push_back("'" + Arg + "': shared libraries are not supported: popcorn programs are static executables");
  } else {
    // gcc treats unknown files as linker inputs.
    CL.Inputs.push_back({Input::Object, Arg});
  }
}

CommandLine parseCommandLine(const std::vector<std::string> &Args, DriverMode Mode) {
  CommandLine CL;
  CL.Mode = Mode;
  CL.LinksCxxLibrary = Mode == DriverMode::Cxx;
  bool SawCompileOnly = false, SawPreprocessOnly = false;
  std::string Language; // -x
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    auto takeValue = [&](std::string_view Option) -> std::string {
      if (Arg.size() > Option.size())
        return Arg.substr(Option.size());
      if (I + 1 < Args.size())
        return Args[++I];
      CL.Errors.push_back("option '" + Arg + "' needs a value");
      return "";
    };

    if (Arg.empty() || Arg[0] != '-' || Arg == "-") {
      addPositional(CL, Arg, Language);
      continue;
    }
    if (Arg == "-c") {
      SawCompileOnly = true;
    } else if (Arg == "-E" || Arg == "-M" || Arg == "-MM") {
      SawPreprocessOnly = true;
      if (Arg != "-E")
        CL.FrontendArgs.push_back(Arg);
    } else if (startsWith(Arg, "-o")) {
      CL.Output = takeValue("-o");
    } else if (startsWith(Arg, "-x")) {
      Language = takeValue("-x");
      if (Language == "none")
        Language.clear();
    } else if (startsWith(Arg, "-O")) {
      CL.OptLevel = Arg.size() == 2 ? "1" : Arg.substr(2);
      if (CL.OptLevel == "fast")
        CL.OptLevel = "3";
      if (CL.OptLevel.size() != 1 || std::string_view("0123sz").find(CL.OptLevel[0]) ==
                                         std::string_view::npos)
        CL.Errors.push_back("unknown optimization level '" + Arg + "'");
    } else if (startsWith(Arg, "-l")) {
      CL.Inputs.push_back({Input::Library, takeValue("-l")});
    } else if (startsWith(Arg, "-L")) {
      CL.LibraryDirs.push_back(takeValue("-L"));
    } else if (startsWith(Arg, "-Wl,")) {
      std::string Rest = Arg.substr(4);
      for (size_t Start = 0;;) {
        size_t Comma = Rest.find(',', Start);
        CL.LinkerArgs.push_back(Rest.substr(Start, Comma - Start));
        if (Comma == std::string::npos)
          break;
        Start = Comma + 1;
      }
    } else if (Arg == "-Xlinker") {
      CL.LinkerArgs.push_back(takeValue("-Xlinker"));
    } else if (startsWith(Arg, "--target=") || Arg == "-target" || Arg == "--target") {
      std::string Target = startsWith(Arg, "--target=") ? Arg : Arg + " " + takeValue(Arg);
      CL.Errors.push_back("option '" + Target + "': " + TargetIsFixed);
    } else if (Arg == "-Xclang" || startsWith(Arg, "-Xclang=")) {
      std::string Cc1Arg = Arg == "-Xclang" ? takeValue(Arg) : Arg.substr(8);
      if (choosesFrontendTarget(Cc1Arg))
        CL.Errors.push_back("option '-Xclang " + Cc1Arg + "': " + TargetIsFixed);
      CL.FrontendArgs.insert(CL.FrontendArgs.end(), {"-Xclang", Cc1Arg});
    } else if (Arg == "-nostdlib++") {
      CL.LinksCxxLibrary = false;
    } else if (Arg == "-nostdinc++") {
      CL.UsesCxxHeaders = false;
    } else if (startsWith(Arg, "-stdlib=")) {
      if (Arg != "-stdlib=libc++")
        CL.Errors.push_back("option '" + Arg + "': popcorn's C++ library is libc++ (-stdlib=libc++)");
    } else if (Arg == "-v") {
      CL.Verbose = true;
    } else if (Arg == "-###") {
      CL.DryRun = true;
    } else if (Arg == "-s") {
      CL.Strip = true;
    } else if (startsWith(Arg, "-fpopcorn-loop-period=")) {
      std::string N = Arg.substr(std::string_view("-fpopcorn-loop-period=").size());
      if (N == "auto")
        CL.PassOptions.push_back("-popcorn-loop-points");
      else if (N.empty() || N.size() > 9 || N.find_first_not_of("0123456789") != std::string::npos)
        CL.Errors.push_back("option '" + Arg + "': the period is a number of iterations (0: no loop points) or 'auto'");
      else
        CL.PassOptions.push_back("-popcorn-loop-period=" + N);
    } else if (startsWith(Arg, "-fpopcorn-nomigrate=")) {
      CL.PassOptions.push_back("-popcorn-nomigrate=" +
                               Arg.substr(std::string_view("-fpopcorn-nomigrate=").size()));
    } else if (startsWith(Arg, "-fpopcorn-")) {
      CL.Errors.push_back("unknown popcorn option '" + Arg +
                          "' (popcorn-clang knows -fpopcorn-loop-period=N and -fpopcorn-nomigrate=F,G,...)");
    } else if (isOneOf(Arg, Ignored)) {
      continue;
    } else if (isOneOf(Arg, InfoOptions) || startsWith(Arg, "-print-prog-name=") ||
               startsWith(Arg, "-print-file-name=")) {
      CL.InfoRequests.push_back(Arg);
    } else if (const char *Why = whyUnsupported(Arg)) {
      CL.Errors.push_back("option '" + Arg + "': " + Why);
    } else if (startsWith(Arg, "-Wa,")) {
      CL.Errors.push_back("option '" + Arg + "': assembler options are specific to one ISA");
    } else {
      bool Matched = false;
      for (std::string_view Option : FrontendWithValue) {
        if (!startsWith(Arg, Option))
          continue;
        if (Arg.size() > Option.size() && Option.size() > 2)
          continue; // "-include" is not "-i" + "nclude"; only -I/-D/-U attach
        std::string Value = takeValue(Option);
        CL.FrontendArgs.push_back(std::string(Option));
        CL.FrontendArgs.push_back(Value);
        CL.HasDependencyFile |= Option == "-MF";
        CL.HasDependencyTarget |= Option == "-MT" || Option == "-MQ";
        Matched = true;
        break;
      }
      if (Matched)
        continue;
      // -std= -W... -w -g... -f... -pedantic -ansi -C -P -MD -MMD -MP ...
      if (Arg == "-MD" || Arg == "-MMD")
        CL.WritesDependencies = true;
      CL.FrontendArgs.push_back(Arg);
    }
  }

  if (!CL.InfoRequests.empty())
    CL.Phase = FinalPhase::PrintInfo;
  else if (SawPreprocessOnly)
    CL.Phase = FinalPhase::Preprocess;
  else if (SawCompileOnly)
    CL.Phase = FinalPhase::Compile;

  size_t Sources = std::count_if(CL.Inputs.begin(), CL.Inputs.end(),
                                 [](const Input &In) { return In.Type == Input::Source; });
  if (CL.Phase == FinalPhase::Compile && Sources > 1 && !CL.Output.empty())
    CL.Errors.push_back("cannot specify -o with -c and several source files");
  if (CL.Phase == FinalPhase::Compile && Sources != CL.Inputs.size() && CL.Errors.empty()) {
    // gcc ignores linker inputs with -c; so do we, but only those.
    CL.Inputs.erase(std::remove_if(CL.Inputs.begin(), CL.Inputs.end(),
                                   [](const Input &In) { return In.Type != Input::Source; }),
                    CL.Inputs.end());
  }
  if (CL.Phase != FinalPhase::PrintInfo && CL.Inputs.empty() && !CL.Verbose && CL.Errors.empty())
    CL.Errors.push_back("no input files");
  return CL;
}

} // namespace popcorn
