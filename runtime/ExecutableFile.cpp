//===- ExecutableFile.cpp - Sections and symbols of this executable -------===//
#include "ExecutableFile.h"
#include "Report.h"
#include "HomeNode.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h> // memfd_create
#include <unistd.h>

namespace popcorn {

ExecutableFile::ExecutableFile() : Fd(open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) {}

ExecutableFile::~ExecutableFile() {
  if (Fd >= 0)
    close(Fd);
}

bool ExecutableFile::readHeader(uint64_t Image, Elf64_Ehdr &Header) const {
  return Fd >= 0 && pread(Fd, &Header, sizeof Header, off_t(Image)) == sizeof Header &&
         !memcmp(Header.e_ident, ELFMAG, SELFMAG) && Header.e_shentsize == sizeof(Elf64_Shdr);
}

bool ExecutableFile::sectionHeader(uint64_t Image, const Elf64_Ehdr &Header, unsigned I,
                                   Elf64_Shdr &S) const {
  return I < Header.e_shnum &&
         pread(Fd, &S, sizeof S, off_t(Image + Header.e_shoff + I * sizeof S)) == sizeof S;
}

bool ExecutableFile::findSectionIn(uint64_t Image, const char *Name, Elf64_Shdr &Out) const {
  Elf64_Ehdr Header;
  Elf64_Shdr Names;
  if (!readHeader(Image, Header) || !sectionHeader(Image, Header, Header.e_shstrndx, Names))
    return false;
  for (unsigned I = 0; sectionHeader(Image, Header, I, Out); I++) {
    char Candidate[64] = {};
    if (pread(Fd, Candidate, sizeof Candidate - 1, off_t(Image + Names.sh_offset + Out.sh_name)) > 0 &&
        !strcmp(Candidate, Name))
      return true;
  }
  return false;
}

bool ExecutableFile::findSection(const char *Name, Elf64_Shdr &Out) const {
  return findSectionIn(0, Name, Out);
}

bool ExecutableFile::imageOffset(uint16_t Machine, uint64_t &Offset) const {
  Elf64_Ehdr Outer;
  if (!readHeader(0, Outer))
    return false;
  if (Outer.e_machine == Machine) {
    Offset = 0;
    return true;
  }
  char Section[32];
  TextBuffer(Section, sizeof Section) << ".popcorn.isa." << isaName(Machine);
  Elf64_Shdr Image;
  if (!findSection(Section, Image))
    return false;
  Offset = Image.sh_offset;
  return true;
}

bool ExecutableFile::findFunction(const char *Name, uint16_t Machine, FunctionRange &Out) const {
  uint64_t Image;
  Elf64_Shdr Symbols, Strings;
  Elf64_Ehdr Header;
  if (!imageOffset(Machine, Image) || !findSectionIn(Image, ".symtab", Symbols) ||
      !readHeader(Image, Header) || !sectionHeader(Image, Header, Symbols.sh_link, Strings))
    return false;
  size_t Length = strlen(Name);
  Elf64_Sym Batch[64];
  uint64_t Count = Symbols.sh_size / sizeof(Elf64_Sym);
  for (uint64_t First = 0; First < Count; First += 64) {
    ssize_t Got = pread(Fd, Batch, sizeof Batch, off_t(Image + Symbols.sh_offset + First * sizeof(Elf64_Sym)));
    if (Got <= 0)
      return false;
    for (size_t I = 0; I < size_t(Got) / sizeof(Elf64_Sym) && First + I < Count; I++) {
      const Elf64_Sym &S = Batch[I];
      char Candidate[256];
      if (ELF64_ST_TYPE(S.st_info) != STT_FUNC || !S.st_value || Length >= sizeof Candidate ||
          pread(Fd, Candidate, Length + 1, off_t(Image + Strings.sh_offset + S.st_name)) !=
              ssize_t(Length + 1) ||
          memcmp(Candidate, Name, Length + 1))
        continue;
      Out = {S.st_value, S.st_value + (S.st_size ? S.st_size : 1)};
      return true;
    }
  }
  return false;
}

int ExecutableFile::copyImage(uint16_t Machine) const {
  char Section[32];
  TextBuffer(Section, sizeof Section) << ".popcorn.isa." << isaName(Machine);
  Elf64_Shdr Source;
  if (!findSection(Section, Source))
    return -1;
  int Image = memfd_create(Section, 0);
  off_t From = off_t(Source.sh_offset);
  size_t Left = Source.sh_size;
  while (Image >= 0 && Left) {
    char Chunk[65536];
    size_t Want = Left < sizeof Chunk ? Left : sizeof Chunk;
    ssize_t Got = pread(Fd, Chunk, Want, From);
    if (Got <= 0 || write(Image, Chunk, size_t(Got)) != Got) {
      close(Image);
      return -1;
    }
    From += Got;
    Left -= size_t(Got);
  }
  return Image;
}

} // namespace popcorn
