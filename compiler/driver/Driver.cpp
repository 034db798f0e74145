//===- Driver.cpp - Carry out a popcorn-clang command line ----------------===//
//
// The pipeline of one source file (docs/architecture.md):
//
//   clang-19 --target=aarch64 -emit-llvm   front end + middle end, once,
//                                          with the popcorn pass plugin
//   popcorn-llc                            one back end per ISA -> one
//                                          multi-ISA object
//
// and of a link: popcorn-ld, which links every ISA and writes one multi-ISA
// executable.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "FrontendDiagnostics.h"
#include "IsaMacros.h"
#include "popcorn/Isa.h"
#include "popcorn/ToolConfig.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace popcorn {

static const char *ToolName = "popcorn-clang";

Toolchain Toolchain::locate(const char *Argv0) {
  static int Anchor;
  Toolchain TC;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  TC.BinDir = std::string(sys::path::parent_path(Exe));
  SmallString<256> Lib(TC.BinDir);
  sys::path::append(Lib, "..", "lib", "popcorn");
  sys::path::remove_dots(Lib, /*remove_dot_dot=*/true);
  TC.LibDir = std::string(Lib);
  TC.Clang = POPCORN_CLANG_PATH;
  TC.ResourceDir = POPCORN_CLANG_RESOURCE_DIR;
  return TC;
}

namespace {

// Runs commands and owns the temporary files between them.
class Executor {
public:
  Executor(bool Verbose, bool DryRun) : Verbose(Verbose), DryRun(DryRun) {}
  ~Executor() {
    for (const std::string &File : Temporaries)
      sys::fs::remove(File);
  }

  // Runs Argv; with StderrFile, its stderr goes there instead.
  bool run(const std::vector<std::string> &Argv,
           std::optional<StringRef> StderrFile = std::nullopt) {
    if (Verbose || DryRun) {
      for (const std::string &Arg : Argv)
        errs() << " \"" << Arg << "\"";
      errs() << "\n";
    }
    if (DryRun)
      return true;
    std::vector<StringRef> Refs(Argv.begin(), Argv.end());
    std::string Error;
    std::optional<StringRef> Redirects[] = {std::nullopt, std::nullopt, StderrFile};
    int Status = sys::ExecuteAndWait(Argv[0], Refs, std::nullopt, Redirects, 0, 0, &Error);
    if (Status == -1) {
      WithColor::error(errs(), ToolName) << "cannot run " << Argv[0] << ": " << Error << "\n";
      return false;
    }
    if (Status < 0) {
      WithColor::error(errs(), ToolName)
          << "internal compiler error: " << sys::path::filename(Argv[0]) << " crashed (" << Error
          << "); the stack dump above names the function it was compiling\n";
      return false;
    }
    return Status == 0;
  }

  std::string temporary(StringRef Stem, StringRef Suffix) {
    SmallString<128> Path;
    if (std::error_code EC = sys::fs::createTemporaryFile(Stem, Suffix, Path)) {
      WithColor::error(errs(), ToolName) << "cannot create a temporary file: " << EC.message() << "\n";
      exit(1);
    }
    Temporaries.push_back(std::string(Path));
    return std::string(Path);
  }

private:
  bool Verbose, DryRun;
  std::vector<std::string> Temporaries;
};

} // namespace

// The front end sees only portable headers: libc++'s for C++ (they wrap
// libc's, which must come after them), ours (stdarg.h, and the
// ISA-specific intrinsic headers replaced by errors), then musl's, then
// clang's own for what musl lacks (stdatomic.h).  It always targets the
// canonical ISA, but presents none to the preprocessor (IsaMacros.h).
// The user's options come after ours, so that their -D and -U hold.
// A preprocessed source (.i) gets no include directories and no -U:
// clang would warn that they are unused, an error with -Werror (configure
// scripts and makefiles compile .i files with the user's warning flags).
static std::vector<std::string> frontendCommand(const CommandLine &CL, const Toolchain &TC,
                                                bool Cxx, bool Preprocessed = false) {
  std::vector<std::string> Cmd = {
      TC.Clang,
      "--target=" + std::string(CanonicalIrIsa.Triple),
      "-nostdinc",
  };
  std::string IsaDir = TC.LibDir + "/" + std::string(CanonicalIrIsa.Name);
  if (Cxx && CL.UsesCxxHeaders && !Preprocessed)
    Cmd.insert(Cmd.end(), {"-isystem", IsaDir + "/include/c++/v1"});
  if (!Preprocessed) {
    Cmd.insert(Cmd.end(),
               {"-isystem", TC.LibDir + "/include",
                "-isystem", IsaDir + "/include",
                "-isystem", TC.ResourceDir + "/include"});
    for (const char *Macro : isaMacros())
      Cmd.push_back("-U" + std::string(Macro));
  }
  Cmd.push_back("-D__popcorn__=1");
  Cmd.insert(Cmd.end(), {
      "-ffunction-sections", "-fdata-sections", "-fno-common",
      "-fno-pic", "-fno-pie",
      // Fused multiply-add exists on aarch64 and not on generic x86-64:
      // contracting a*b+c would give each ISA different results.
      "-ffp-contract=off",
      // Assembly is for one ISA: every asm statement and file-scope block
      // is then an error at its line, even one whose constraints only x86
      // knows (FrontendDiagnostics.h words it).
      "-fno-gnu-inline-asm",
  });
  Cmd.insert(Cmd.end(), CL.FrontendArgs.begin(), CL.FrontendArgs.end());
  return Cmd;
}

static bool choosesColors(const CommandLine &CL) {
  return llvm::any_of(CL.FrontendArgs, [](StringRef Arg) {
    return Arg.contains("color-diagnostics") || Arg.starts_with("-fdiagnostics-color");
  });
}

// Runs the front end with its diagnostics passed through
// rewriteFrontendDiagnostics (FrontendDiagnostics.h).  They go through a
// file, so clang colors them only when told to: as it would on our stderr.
static bool runFrontEnd(const CommandLine &CL, Executor &Exec, std::vector<std::string> Cmd,
                        StringRef Stem) {
  if (CL.DryRun)
    return Exec.run(Cmd);
  if (errs().has_colors() && !choosesColors(CL))
    Cmd.push_back("-fcolor-diagnostics");
  std::string Diagnostics = Exec.temporary(Stem, "txt");
  bool Ok = Exec.run(Cmd, StringRef(Diagnostics));
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Diagnostics))
    errs() << rewriteFrontendDiagnostics((*Text)->getBuffer());
  return Ok;
}

static std::string backEndOptLevel(const std::string &Level) {
  return (Level == "s" || Level == "z") ? "2" : Level;
}

static std::string replaceExtension(StringRef Path, StringRef Ext) {
  SmallString<256> Result(Path);
  sys::path::replace_extension(Result, Ext);
  return std::string(Result);
}

// The last -g option decides, as in clang.
static bool wantsDebugInfo(const CommandLine &CL) {
  bool Wants = false;
  for (const std::string &Arg : CL.FrontendArgs)
    if (Arg.rfind("-g", 0) == 0)
      Wants = Arg != "-g0";
  return Wants;
}

// The language the front end must be told for In, empty when its name
// tells: the -x language of the command line, or C++ for a .c file given
// to popcorn-clang++ (clang-19 runs as a C driver).
static std::string frontEndLanguage(const Input &In, DriverMode Mode) {
  if (In.Language.empty() && isCxxSource(In, Mode) && StringRef(In.Value).ends_with(".c"))
    return "c++";
  return In.Language;
}

// The front end's arguments naming one source: its language, if it needs
// one (or "-x none" after a source that had one), then the file.
static void addSource(std::vector<std::string> &Cmd, const Input &In, DriverMode Mode,
                      std::string &LanguageInEffect) {
  std::string Language = frontEndLanguage(In, Mode);
  if (Language != LanguageInEffect) {
    Cmd.insert(Cmd.end(), {"-x", Language.empty() ? "none" : Language});
    LanguageInEffect = Language;
  }
  Cmd.push_back(In.Value);
}

static bool isPreprocessed(const Input &In) {
  if (!In.Language.empty())
    return In.Language == "cpp-output" || In.Language == "c++-cpp-output";
  StringRef Name(In.Value);
  return Name.ends_with(".i") || Name.ends_with(".ii");
}

static bool compileSource(const CommandLine &CL, const Toolchain &TC, Executor &Exec,
                          const Input &In, const std::string &Object);

// The first line of preprocessed assembly that is not blank or a line
// marker, 0 if none: what an assembler would assemble.
static size_t firstAssembledLine(StringRef Text, StringRef &Line) {
  size_t Number = 0;
  while (!Text.empty()) {
    std::tie(Line, Text) = Text.split('\n');
    Number++;
    StringRef Code = Line.trim();
    if (!Code.empty() && !Code.starts_with("#"))
      return Number;
  }
  return 0;
}

// An assembly source that needs the preprocessor (.S): packages keep one
// for each ISA, each under that ISA's macros (zstd's Huffman decoder for
// x86-64), and none of them is defined here, so it usually comes to
// nothing: it is then compiled as an empty C file, as a portable build
// without it would.  Assembly that is left is refused.
static bool compileAssembly(const CommandLine &CL, const Toolchain &TC, Executor &Exec,
                            const Input &In, const std::string &Object) {
  std::string Preprocessed = Exec.temporary(sys::path::stem(In.Value), "s");
  std::vector<std::string> Cmd = frontendCommand(CL, TC, false);
  Cmd.insert(Cmd.end(), {"-O" + CL.OptLevel, "-E", "-x", "assembler-with-cpp", In.Value, "-o",
                         Preprocessed});
  if (!runFrontEnd(CL, Exec, Cmd, sys::path::stem(In.Value)))
    return false;
  if (CL.DryRun)
    return true;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Preprocessed);
  StringRef Line;
  if (!Text || firstAssembledLine((*Text)->getBuffer(), Line)) {
    WithColor::error(errs(), "popcorn-clang")
        << "'" << In.Value
        << "': assembly is specific to one ISA and cannot be part of a multi-ISA program"
        << (Text ? " (after preprocessing it still holds '" + Line.trim().str() + "')" : "")
        << "\n";
    return false;
  }
  std::string Empty = Exec.temporary(sys::path::stem(In.Value), "c");
  std::error_code Error;
  raw_fd_ostream(Empty, Error);
  return !Error && compileSource(CL, TC, Exec, {Input::Source, Empty, "c"}, Object);
}

static bool compileSource(const CommandLine &CL, const Toolchain &TC, Executor &Exec,
                          const Input &In, const std::string &Object) {
  if (In.Language == "assembler-with-cpp")
    return compileAssembly(CL, TC, Exec, In, Object);
  const std::string &Source = In.Value;
  std::string Bitcode = Exec.temporary(sys::path::stem(Source), "bc");
  std::vector<std::string> FrontEnd =
      frontendCommand(CL, TC, isCxxSource(In, CL.Mode), isPreprocessed(In));
  std::string Plugin = TC.LibDir + "/popcorn-plugin.so";
  FrontEnd.push_back("-fpass-plugin=" + Plugin);
  // A pass plugin's options exist once it is loaded; -load loads it before
  // clang reads the -mllvm options (-fpass-plugin only later).  The list of
  // libc's functions spares their calls call-site records (LibcFunctions.h).
  FrontEnd.insert(FrontEnd.end(), {"-Xclang", "-load", "-Xclang", Plugin, "-mllvm",
                                   "-popcorn-libc-functions=" + TC.LibDir + "/libc-functions.txt"});
  // The one IR is optimized with aarch64's cost model, whose generic CPU
  // unrolls no loop with a trip count known only at run time.  x86-64's
  // does, up to its 28-micro-op loop buffer, and x86-64 is where programs
  // start: without it a stock build ran 1.2x fewer instructions in
  // spectral-norm's and mandelbrot's inner loops.
  FrontEnd.insert(FrontEnd.end(), {"-mllvm", "-partial-unrolling-threshold=28"});
  for (const std::string &Option : CL.PassOptions)
    FrontEnd.insert(FrontEnd.end(), {"-mllvm", Option});
  if (CL.WritesDependencies && !CL.HasDependencyFile)
    FrontEnd.insert(FrontEnd.end(), {"-MF", replaceExtension(Object, "d")});
  if (CL.WritesDependencies && !CL.HasDependencyTarget)
    FrontEnd.insert(FrontEnd.end(), {"-MT", Object});
  // Call-site records carry their source line, for the link's mismatch
  // reports; without -g the line tables go no further than the records.
  bool LinesOnly = !wantsDebugInfo(CL);
  if (LinesOnly)
    FrontEnd.push_back("-gline-tables-only");
  FrontEnd.insert(FrontEnd.end(), {"-O" + CL.OptLevel, "-emit-llvm", "-c"});
  std::string Language;
  addSource(FrontEnd, In, CL.Mode, Language);
  FrontEnd.insert(FrontEnd.end(), {"-o", Bitcode});
  if (!runFrontEnd(CL, Exec, FrontEnd, sys::path::stem(Source)))
    return false;
  std::vector<std::string> BackEnd = {TC.BinDir + "/popcorn-llc",
                                      "-O" + backEndOptLevel(CL.OptLevel), Bitcode, "-o", Object};
  if (LinesOnly)
    BackEnd.push_back("-strip-debug");
  return Exec.run(BackEnd);
}

// The host ISA's sysroot library directory: where a program links libc,
// the runtime and the compiler builtins.
static std::string hostLibraryDir(const Toolchain &TC) {
  return TC.LibDir + "/" + std::string(HostIsa.Name) + "/lib";
}

// What -print-file-name=NAME answers: NAME's path in the sysroot, or NAME
// itself when the sysroot has no such file (as gcc and clang answer).
static std::string libraryFile(const Toolchain &TC, StringRef Name) {
  std::string Path = hostLibraryDir(TC) + "/" + Name.str();
  return !Name.empty() && sys::fs::exists(Path) ? Path : Name.str();
}

static void printHelp() {
  outs() << R"(usage: popcorn-clang [options] file...
       popcorn-clang++ [options] file...

Compiles C and C++ for every ISA at once (x86_64 and aarch64): each object
and executable holds code for both, so that a thread can move between them.
popcorn-clang++ compiles every source as C++ and links libc++ (-nostdlib++:
not).

popcorn-clang's own options:
  -fpopcorn-loop-period=N     a migration point on every loop's back edge,
                              taken every N iterations (0: no loop points)
  -fpopcorn-loop-period=auto  a point in every loop that could run long
                              without one, at a period of the compiler's
                              (default: only in the loops that call the
                              program's leaf functions and reach no point
                              through any of their calls)
  -fpopcorn-nomigrate=f,g     no migration points in these functions

Refused, with the reason: options for one ISA (-m..., -march=, --target=,
-target), assembly (inline, file-scope, .s files, and .S files with
assembly left once no ISA's macros are defined), ISA-specific headers
and builtins, va_arg of a struct, -shared, -S, sanitizers, LTO, OpenMP.

Otherwise clang's usual options apply (see 'clang --help'): -c -o -E -O0..3
-g -I -D -U -std= -W... -l -L -Wl, -MD -MF -v ... and @FILE, whose
arguments are read from FILE.
)";
}

static int printInfo(const CommandLine &CL, const Toolchain &TC) {
  for (const std::string &Request : CL.InfoRequests) {
    StringRef R(Request);
    if (R == "--help" || R == "-h") {
      printHelp();
    } else if (R == "--version") {
      outs() << "popcorn-clang version 0.1.0 (clang 19; multi-ISA:";
      for (const IsaInfo &Info : AllIsas)
        outs() << " " << Info.Name;
      outs() << ")\nTarget: " << HostIsa.Triple << "\nThread model: posix\nInstalledDir: "
             << TC.BinDir << "\n";
    } else if (R == "-dumpmachine") {
      outs() << HostIsa.Triple << "\n";
    } else if (R == "-dumpversion" || R == "-dumpfullversion") {
      outs() << "19\n";
    } else if (R.consume_front("-print-file-name=")) {
      outs() << libraryFile(TC, R) << "\n";
    } else if (R.consume_front("-print-prog-name=")) {
      outs() << R << "\n";
    } else if (R == "-print-search-dirs") {
      outs() << "programs: =" << TC.BinDir << "\nlibraries: =" << hostLibraryDir(TC) << "\n";
    } else if (R == "-print-libgcc-file-name") {
      outs() << hostLibraryDir(TC) << "/libpopcorn-builtins.a\n";
    } else {
      outs() << ".\n"; // -print-multi-*: one library directory per ISA, no multilib
    }
  }
  return 0;
}

int runDriver(const CommandLine &CL, const Toolchain &TC) {
  if (!CL.Errors.empty()) {
    for (const std::string &Message : CL.Errors)
      WithColor::error(errs(), ToolName) << Message << "\n";
    return 1;
  }
  if (CL.Phase == FinalPhase::PrintInfo)
    return printInfo(CL, TC);
  if (CL.Verbose)
    errs() << "popcorn-clang version 0.1.0 (clang 19)\n";
  if (CL.Inputs.empty())
    return 0; // a bare "-v"

  Executor Exec(CL.Verbose, CL.DryRun);
  if (CL.Phase == FinalPhase::Preprocess) {
    bool Cxx = llvm::any_of(CL.Inputs, [&](const Input &In) { return isCxxSource(In, CL.Mode); });
    std::vector<std::string> Cmd = frontendCommand(CL, TC, Cxx);
    // The optimization level is a macro too (__OPTIMIZE__): as when compiling.
    Cmd.insert(Cmd.end(), {"-O" + CL.OptLevel, "-E"});
    if (!CL.Output.empty())
      Cmd.insert(Cmd.end(), {"-o", CL.Output});
    std::string Language;
    for (const Input &In : CL.Inputs)
      addSource(Cmd, In, CL.Mode, Language);
    return runFrontEnd(CL, Exec, Cmd, "preprocess") ? 0 : 1;
  }

  if (CL.Phase == FinalPhase::Compile) {
    for (const Input &In : CL.Inputs) {
      std::string Object = !CL.Output.empty()
                               ? CL.Output
                               : replaceExtension(sys::path::filename(In.Value), "o");
      if (!compileSource(CL, TC, Exec, In, Object))
        return 1;
    }
    return 0;
  }

  std::vector<std::string> Link = {TC.BinDir + "/popcorn-ld", "-o",
                                   CL.Output.empty() ? "a.out" : CL.Output};
  if (CL.Verbose)
    Link.push_back("-v");
  if (CL.Strip)
    Link.push_back("-s");
  for (const std::string &Dir : CL.LibraryDirs)
    Link.push_back("-L" + Dir);
  for (const std::string &Arg : CL.LinkerArgs)
    Link.push_back("--lld-arg=" + Arg);
  for (const Input &In : CL.Inputs) {
    switch (In.Type) {
    case Input::Source: {
      std::string Object = Exec.temporary(sys::path::stem(In.Value), "o");
      if (!compileSource(CL, TC, Exec, In, Object))
        return 1;
      Link.push_back(Object);
      break;
    }
    case Input::Library:
      Link.push_back("-l" + In.Value);
      break;
    case Input::Object:
    case Input::Archive:
      Link.push_back(In.Value);
      break;
    }
  }
  // As clang++ links libc++ statically: the library, its ABI layer and the
  // unwinder that raises its exceptions.
  if (CL.LinksCxxLibrary)
    Link.insert(Link.end(), {"-lc++", "-lc++abi", "-lunwind"});
  return Exec.run(Link) ? 0 : 1;
}

} // namespace popcorn
