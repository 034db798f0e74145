//===- Driver.h - Carry out a popcorn-clang command line -------*- C++ -*-===//
#ifndef POPCORN_DRIVER_DRIVER_H
#define POPCORN_DRIVER_DRIVER_H

#include "CommandLine.h"
#include <string>

namespace popcorn {

// Where the driver finds the programs and files it runs with.
struct Toolchain {
  std::string BinDir;      // popcorn-llc, popcorn-ld
  std::string LibDir;      // <BinDir>/../lib/popcorn: sysroots, plugin, headers
  std::string Clang;       // clang-19
  std::string ResourceDir; // clang-19's resource directory

  static Toolchain locate(const char *Argv0);
};

/// Runs the front end, back ends and linker that CL asks for.  Returns the
/// process exit code; every failure has been reported on stderr.
int runDriver(const CommandLine &CL, const Toolchain &TC);

} // namespace popcorn

#endif
