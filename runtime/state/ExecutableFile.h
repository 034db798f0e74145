//===- ExecutableFile.h - Sections and symbols of this executable -*- C++ -*-===//
//
// The home node reads its own multi-ISA file (/proc/self/exe): the other
// ISAs' images to start nodes with, and function symbols for triggers that
// name a function.  Headers and symbols are read a few at a time into the
// caller's stack, never into the program's data, whose pages may belong to
// another node.
//
// An embedded image leaves the bytes it shares with the host image (the
// migration metadata) to the host (popcorn/SharedBytes.h), and is stored
// compressed (popcorn/StoredImage.h): it is read as a short list of pieces,
// of the file and of the stored image inflated into memory this object
// owns.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_EXECUTABLEFILE_H
#define POPCORN_RUNTIME_EXECUTABLEFILE_H

#include <elf.h>
#include <stdint.h>

namespace popcorn {

struct FunctionRange {
  uint64_t Start, End; // End 0: not known
};

// Where one ISA's image is in the file, in order.
struct ImagePieces {
  struct Piece {
    uint64_t FileOffset, Size;
    const uint8_t *Memory; // if not null, the bytes are here, not in the file
  };
  static constexpr unsigned MaxShared = 4;
  Piece Pieces[2 * MaxShared + 1];
  unsigned Count;
};

class ExecutableFile {
public:
  ExecutableFile();
  ~ExecutableFile();
  ExecutableFile(const ExecutableFile &) = delete;
  ExecutableFile &operator=(const ExecutableFile &) = delete;

  enum class Lookup { Found, NoSuchFunction, NoSymbols };

  /// The code of function Name in the image of ISA Machine (the outer image
  /// or one embedded in .popcorn.isa.<isa>), by that image's symbols.  When
  /// strip has taken them (the outer image's), the start alone, by another
  /// image's: a function starts at one address on every ISA.
  Lookup findFunction(const char *Name, uint16_t Machine, FunctionRange &Out) const;

  /// A memory file holding the whole embedded image of ISA Machine; -1 if
  /// there is none or it cannot be read.
  int copyImage(uint16_t Machine) const;

private:
  bool image(uint16_t Machine, ImagePieces &Out) const;
  bool read(const ImagePieces &Image, uint64_t Offset, void *Out, uint64_t Size) const;
  bool readHeader(const ImagePieces &Image, Elf64_Ehdr &Header) const;
  bool sectionHeader(const ImagePieces &Image, const Elf64_Ehdr &Header, unsigned I,
                     Elf64_Shdr &S) const;
  bool findSection(const ImagePieces &Image, const char *Name, Elf64_Shdr &Out) const;
  bool inflate(const Elf64_Shdr &Stored) const;
  Lookup findSymbol(const ImagePieces &Image, const char *Name, FunctionRange &Out) const;
  int Fd;
  // The stored image of the last compressed section read, inflated.
  mutable uint8_t *Inflated = nullptr;
  mutable uint64_t InflatedSize = 0;
};

} // namespace popcorn

#endif
