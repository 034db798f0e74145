//===- ExecutableFile.h - Sections and symbols of this executable -*- C++ -*-===//
//
// The home node reads its own multi-ISA file (/proc/self/exe): the other
// ISAs' images to start nodes with, and function symbols for triggers that
// name a function.  Headers and symbols are read a few at a time into the
// caller's stack, never into the program's data, whose pages may belong to
// another node.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_EXECUTABLEFILE_H
#define POPCORN_RUNTIME_EXECUTABLEFILE_H

#include <elf.h>
#include <stdint.h>

namespace popcorn {

struct FunctionRange {
  uint64_t Start, End;
};

class ExecutableFile {
public:
  ExecutableFile();
  ~ExecutableFile();
  ExecutableFile(const ExecutableFile &) = delete;
  ExecutableFile &operator=(const ExecutableFile &) = delete;

  /// The section called Name of the outer (host ISA's) image.
  bool findSection(const char *Name, Elf64_Shdr &Out) const;

  /// The code of function Name in the image of ISA Machine (the outer image
  /// or one embedded in .popcorn.isa.<isa>).
  bool findFunction(const char *Name, uint16_t Machine, FunctionRange &Out) const;

  /// A memory file holding the embedded image of ISA Machine; -1 if none.
  int copyImage(uint16_t Machine) const;

private:
  bool imageOffset(uint16_t Machine, uint64_t &Offset) const;
  bool readHeader(uint64_t Image, Elf64_Ehdr &Header) const;
  bool sectionHeader(uint64_t Image, const Elf64_Ehdr &Header, unsigned I, Elf64_Shdr &S) const;
  bool findSectionIn(uint64_t Image, const char *Name, Elf64_Shdr &Out) const;
  int Fd;
};

} // namespace popcorn

#endif
