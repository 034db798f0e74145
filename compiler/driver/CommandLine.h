//===- CommandLine.h - What a gcc-style command line asks for -*- C++ -*-===//
//
// popcorn-clang takes the command lines that make, CMake and autoconf give a
// C compiler, and popcorn-clang++ those they give a C++ compiler.  parseCommandLine() turns one into a plain description of the
// work; the driver (Driver.h) carries it out.  Options that cannot mean
// anything for a program that runs on several ISAs are rejected here, with
// the option named.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_DRIVER_COMMANDLINE_H
#define POPCORN_DRIVER_COMMANDLINE_H

#include <string>
#include <vector>

namespace popcorn {

enum class FinalPhase {
  Preprocess, // -E, -M, -MM
  Compile,    // -c: one multi-ISA object per source
  Link,       // a multi-ISA executable
  PrintInfo,  // --version, -dumpmachine, ...: nothing to build
};

// One positional input or library, in command-line order (order matters to
// the linker).
struct Input {
  enum Kind { Source, Object, Archive, Library /* -lNAME */ } Type;
  std::string Value; // a path, or NAME for -lNAME
  std::string Language = {}; // a source's -x language ("c", "c++", "cpp-output"), empty if none
};

// The driver the command line was given to: popcorn-clang++ compiles every
// source as C++ (.c too, as clang++ does) and links the C++ library.
enum class DriverMode { C, Cxx };

struct CommandLine {
  FinalPhase Phase = FinalPhase::Link;
  std::vector<Input> Inputs;
  std::string Output;                      // -o, empty if not given
  std::vector<std::string> FrontendArgs;   // for the C front end, in order
  std::vector<std::string> LibraryDirs;    // -L
  std::vector<std::string> LinkerArgs;     // -Wl,... and -Xlinker
  std::string OptLevel = "0";              // -O: 0 1 2 3 s z
  bool Verbose = false;                    // -v
  bool DryRun = false;                     // -###
  bool Strip = false;                      // -s
  bool WritesDependencies = false;         // -MD or -MMD
  bool HasDependencyFile = false;          // -MF
  bool HasDependencyTarget = false;        // -MT or -MQ
  DriverMode Mode = DriverMode::C;
  bool LinksCxxLibrary = false;            // popcorn-clang++ without -nostdlib++
  bool UsesCxxHeaders = true;              // no -nostdinc++ (libc++'s own build)
  std::vector<std::string> PassOptions;    // -fpopcorn-*, as pass plugin options
  std::vector<std::string> InfoRequests;   // --version, -dumpmachine, ...
  std::vector<std::string> Errors;         // one message each, no prefix
};

CommandLine parseCommandLine(const std::vector<std::string> &Args,
                             DriverMode Mode = DriverMode::C);

// Whether the front end compiles In as C++: by its -x language, else by its
// name, else by the driver (clang++ compiles a .c file as C++).
bool isCxxSource(const Input &In, DriverMode Mode);

} // namespace popcorn

#endif
