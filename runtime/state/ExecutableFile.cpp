//===- ExecutableFile.cpp - Sections and symbols of this executable -------===//
#include "state/ExecutableFile.h"
#include "popcorn/SharedBytes.h"
#include "popcorn/StoredImage.h"
#include "state/Inflate.h"
#include "RegisterSet.h"
#include "state/NodeList.h"
#include "support/Report.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

namespace popcorn {

// The host image is the file itself.
static const ImagePieces OuterImage = {{{0, UINT64_MAX, nullptr}}, 1};

ExecutableFile::ExecutableFile() : Fd(open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) {}

ExecutableFile::~ExecutableFile() {
  if (Fd >= 0)
    close(Fd);
  if (Inflated)
    munmap(Inflated, InflatedSize);
}

bool ExecutableFile::read(const ImagePieces &Image, uint64_t Offset, void *Out,
                          uint64_t Size) const {
  char *To = static_cast<char *>(Out);
  for (unsigned I = 0; I < Image.Count && Size; I++) {
    const ImagePieces::Piece &P = Image.Pieces[I];
    if (Offset >= P.Size) {
      Offset -= P.Size;
      continue;
    }
    uint64_t Here = P.Size - Offset < Size ? P.Size - Offset : Size;
    if (P.Memory)
      memcpy(To, P.Memory + Offset, Here);
    else if (pread(Fd, To, Here, off_t(P.FileOffset + Offset)) != ssize_t(Here))
      return false;
    To += Here;
    Size -= Here;
    Offset = 0;
  }
  return Size == 0;
}

bool ExecutableFile::readHeader(const ImagePieces &Image, Elf64_Ehdr &Header) const {
  return read(Image, 0, &Header, sizeof Header) && !memcmp(Header.e_ident, ELFMAG, SELFMAG) &&
         Header.e_shentsize == sizeof(Elf64_Shdr);
}

bool ExecutableFile::sectionHeader(const ImagePieces &Image, const Elf64_Ehdr &Header,
                                   unsigned I, Elf64_Shdr &S) const {
  return I < Header.e_shnum && read(Image, Header.e_shoff + I * sizeof S, &S, sizeof S);
}

bool ExecutableFile::findSection(const ImagePieces &Image, const char *Name,
                                 Elf64_Shdr &Out) const {
  Elf64_Ehdr Header;
  Elf64_Shdr Names;
  if (!readHeader(Image, Header) || !sectionHeader(Image, Header, Header.e_shstrndx, Names))
    return false;
  size_t Length = strlen(Name);
  for (unsigned I = 0; sectionHeader(Image, Header, I, Out); I++) {
    char Candidate[64];
    if (Length < sizeof Candidate &&
        read(Image, Names.sh_offset + Out.sh_name, Candidate, Length + 1) &&
        !memcmp(Candidate, Name, Length + 1))
      return true;
  }
  return false;
}

// The embedded image's section, cut where .popcorn.shared.<isa> says a
// shared section of the host goes.
bool ExecutableFile::image(uint16_t Machine, ImagePieces &Out) const {
  Elf64_Ehdr Outer;
  if (!readHeader(OuterImage, Outer))
    return false;
  if (Outer.e_machine == Machine) {
    Out = OuterImage;
    return true;
  }
  char Name[48];
  Elf64_Shdr Stored, Shared, Host;
  TextBuffer(Name, sizeof Name) << ".popcorn.isa." << isaName(Machine);
  if (!findSection(OuterImage, Name, Stored))
    return false;
  // The pieces below are of Stored as it is stored, or inflated (at the
  // same offsets).
  const uint8_t *Memory = nullptr;
  popcorn_stored_image Header;
  if (Stored.sh_size >= sizeof Header && read(OuterImage, Stored.sh_offset, &Header, sizeof Header) &&
      !memcmp(Header.magic, POPCORN_STORED_IMAGE_MAGIC, sizeof Header.magic)) {
    if (!inflate(Stored))
      return false;
    Memory = Inflated;
    Stored.sh_offset = 0;
    Stored.sh_size = InflatedSize;
  }
  Out.Count = 0;
  uint64_t Done = 0; // of Stored
  uint64_t ImageOffset = 0;
  TextBuffer(Name, sizeof Name) << POPCORN_SHARED_SECTION_PREFIX << isaName(Machine);
  if (findSection(OuterImage, Name, Shared)) {
    if (Shared.sh_size % sizeof(popcorn_shared_bytes) ||
        Shared.sh_size / sizeof(popcorn_shared_bytes) > ImagePieces::MaxShared)
      return false;
    for (uint64_t At = 0; At < Shared.sh_size; At += sizeof(popcorn_shared_bytes)) {
      popcorn_shared_bytes R;
      if (!read(OuterImage, Shared.sh_offset + At, &R, sizeof R) ||
          R.image_offset < ImageOffset || R.image_offset - ImageOffset > Stored.sh_size - Done)
        return false;
      R.host_section[sizeof R.host_section - 1] = 0;
      if (!findSection(OuterImage, R.host_section, Host) || Host.sh_size < R.size)
        return false;
      uint64_t Gap = R.image_offset - ImageOffset;
      Out.Pieces[Out.Count++] = {Stored.sh_offset + Done, Gap, Memory ? Memory + Done : nullptr};
      Out.Pieces[Out.Count++] = {Host.sh_offset, R.size, nullptr};
      Done += Gap;
      ImageOffset = R.image_offset + R.size;
    }
  }
  Out.Pieces[Out.Count++] = {Stored.sh_offset + Done, Stored.sh_size - Done,
                             Memory ? Memory + Done : nullptr};
  return true;
}

// Inflates the compressed image in section Stored (popcorn/StoredImage.h)
// into memory of its own, read from a private mapping of the file.
bool ExecutableFile::inflate(const Elf64_Shdr &Stored) const {
  popcorn_stored_image Header;
  if (!read(OuterImage, Stored.sh_offset, &Header, sizeof Header) ||
      Header.compressed_size > Stored.sh_size - sizeof Header)
    return false;
  uint64_t Start = Stored.sh_offset + sizeof Header;
  uint64_t MapStart = Start & ~uint64_t(4095);
  uint64_t MapSize = Start - MapStart + Header.compressed_size;
  void *Compressed = mmap(nullptr, MapSize, PROT_READ, MAP_PRIVATE, Fd, off_t(MapStart));
  if (Compressed == MAP_FAILED)
    return false;
  if (Inflated)
    munmap(Inflated, InflatedSize);
  InflatedSize = Header.stored_size;
  void *Out = mmap(nullptr, InflatedSize ? InflatedSize : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  Inflated = Out == MAP_FAILED ? nullptr : static_cast<uint8_t *>(Out);
  bool Ok = Inflated && inflateZlib(static_cast<const uint8_t *>(Compressed) + (Start - MapStart),
                                    Header.compressed_size, Inflated, InflatedSize);
  munmap(Compressed, MapSize);
  return Ok;
}

ExecutableFile::Lookup ExecutableFile::findSymbol(const ImagePieces &Image, const char *Name,
                                                  FunctionRange &Out) const {
  Elf64_Shdr Symbols, Strings;
  Elf64_Ehdr Header;
  if (!findSection(Image, ".symtab", Symbols) || !readHeader(Image, Header) ||
      !sectionHeader(Image, Header, Symbols.sh_link, Strings))
    return Lookup::NoSymbols;
  size_t Length = strlen(Name);
  uint64_t Count = Symbols.sh_size / sizeof(Elf64_Sym);
  for (uint64_t First = 0; First < Count; First += 64) {
    Elf64_Sym Batch[64];
    uint64_t InBatch = Count - First < 64 ? Count - First : 64;
    if (!read(Image, Symbols.sh_offset + First * sizeof(Elf64_Sym), Batch,
              InBatch * sizeof(Elf64_Sym)))
      return Lookup::NoSymbols;
    for (uint64_t I = 0; I < InBatch; I++) {
      const Elf64_Sym &S = Batch[I];
      char Candidate[256];
      if (ELF64_ST_TYPE(S.st_info) != STT_FUNC || !S.st_value || Length >= sizeof Candidate ||
          !read(Image, Strings.sh_offset + S.st_name, Candidate, Length + 1) ||
          memcmp(Candidate, Name, Length + 1))
        continue;
      Out = {S.st_value, S.st_value + (S.st_size ? S.st_size : 1)};
      return Lookup::Found;
    }
  }
  return Lookup::NoSuchFunction;
}

ExecutableFile::Lookup ExecutableFile::findFunction(const char *Name, uint16_t Machine,
                                                    FunctionRange &Out) const {
  ImagePieces Image;
  Lookup Result = image(Machine, Image) ? findSymbol(Image, Name, Out) : Lookup::NoSymbols;
  if (Result != Lookup::NoSymbols)
    return Result;
  const uint16_t Machines[] = {EmX86_64, EmAArch64};
  for (uint16_t Other : Machines) {
    if (Other == Machine || !image(Other, Image))
      continue;
    Result = findSymbol(Image, Name, Out);
    if (Result != Lookup::NoSymbols) {
      Out.End = 0;
      return Result;
    }
  }
  return Lookup::NoSymbols;
}

int ExecutableFile::copyImage(uint16_t Machine) const {
  ImagePieces Pieces;
  if (!image(Machine, Pieces))
    return -1;
  int Image = memfd_create(isaName(Machine), 0);
  for (unsigned I = 0; Image >= 0 && I < Pieces.Count; I++) {
    const ImagePieces::Piece &P = Pieces.Pieces[I];
    off_t From = off_t(P.FileOffset);
    uint64_t Left = P.Size;
    for (const uint8_t *Bytes = P.Memory; Bytes && Left;) {
      ssize_t Put = write(Image, Bytes, Left);
      if (Put <= 0) {
        close(Image);
        return -1;
      }
      Bytes += Put;
      Left -= uint64_t(Put);
    }
    while (Left) {
      char Chunk[65536];
      size_t Want = Left < sizeof Chunk ? size_t(Left) : sizeof Chunk;
      ssize_t Got = pread(Fd, Chunk, Want, From);
      if (Got <= 0 || write(Image, Chunk, size_t(Got)) != Got) {
        close(Image);
        return -1;
      }
      From += Got;
      Left -= uint64_t(Got);
    }
  }
  return Image;
}

} // namespace popcorn
