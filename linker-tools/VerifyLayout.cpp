//===- VerifyLayout.cpp - Do the ISAs of a program share one layout? ------===//
//
// A pointer saved on one ISA must mean the same thing on every other: the
// check after every link, and popcorn-inspect's verify.
//
//===----------------------------------------------------------------------===//
#include "VerifyLayout.h"
#include "popcorn/Isa.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::object;

namespace popcorn {

static Error verifyError(const Twine &What) {
  return createStringError(inconvertibleErrorCode(), What);
}

static Expected<std::unique_ptr<ELF64LEObjectFile>> openExecutable(MemoryBufferRef File) {
  Expected<std::unique_ptr<ObjectFile>> Obj = ObjectFile::createObjectFile(File);
  if (!Obj)
    return verifyError(File.getBufferIdentifier() + ": " + toString(Obj.takeError()));
  if (!isa<ELF64LEObjectFile>(Obj->get()))
    return verifyError(File.getBufferIdentifier() + ": not a 64-bit little-endian ELF file");
  return std::unique_ptr<ELF64LEObjectFile>(cast<ELF64LEObjectFile>(Obj->release()));
}

static Expected<std::vector<LayoutSymbol>> readSymbols(const ELF64LEObjectFile &Elf) {
  std::vector<LayoutSymbol> Symbols;
  StringMap<unsigned> Count;
  for (const ELFSymbolRef &Sym : Elf.symbols()) {
    uint8_t Type = Sym.getELFType();
    if (Type != ELF::STT_FUNC && Type != ELF::STT_OBJECT)
      continue;
    Expected<StringRef> Name = Sym.getName();
    Expected<uint64_t> Address = Sym.getAddress();
    Expected<section_iterator> Section = Sym.getSection();
    if (!Name || !Address || !Section) {
      consumeError(Name.takeError());
      consumeError(Address.takeError());
      consumeError(Section.takeError());
      return verifyError(Elf.getFileName() + ": the symbol table is corrupt");
    }
    if (Name->empty() || *Section == Elf.section_end())
      continue;
    Expected<StringRef> SectionName = (*Section)->getName();
    if (!SectionName) {
      consumeError(SectionName.takeError());
      return verifyError(Elf.getFileName() + ": a section header is corrupt");
    }
    ++Count[*Name];
    Symbols.push_back({Name->str(), *Address, Sym.getSize(), Type == ELF::STT_FUNC,
                       SectionName->str()});
  }
  llvm::erase_if(Symbols, [&](const LayoutSymbol &S) { return Count[S.Name] > 1; });
  llvm::sort(Symbols, [](const LayoutSymbol &A, const LayoutSymbol &B) {
    return A.Address < B.Address;
  });
  return Symbols;
}

Expected<std::vector<LayoutSymbol>> readLayoutSymbols(MemoryBufferRef Executable) {
  Expected<std::unique_ptr<ELF64LEObjectFile>> Elf = openExecutable(Executable);
  if (!Elf)
    return Elf.takeError();
  return readSymbols(**Elf);
}

// The initial bytes of [Address, Address+Size) in an executable, if they lie
// in one section that has contents in the file.
static std::optional<StringRef> bytesAt(const ELF64LEObjectFile &Elf, uint64_t Address,
                                        uint64_t Size) {
  for (const SectionRef &Section : Elf.sections()) {
    if (Section.isBSS() || Address < Section.getAddress() ||
        Address + Size > Section.getAddress() + Section.getSize())
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents) {
      consumeError(Contents.takeError());
      return std::nullopt;
    }
    return Contents->substr(Address - Section.getAddress(), Size);
  }
  return std::nullopt;
}

// Output sections every ISA lays out alike (Layout.cpp).  The rest are one
// ISA's own: constants the compiler marked as having no significant address
// (merged by the linker), unwind tables, the GOT, start-up code.
static bool isShared(StringRef Section) {
  return Section == ".text" || Section == ".rodata" || Section == ".data" ||
         Section == ".init_array" || Section == ".fini_array" || Section == ".bss";
}

static bool hasSharedContents(StringRef Section) {
  return isShared(Section) && Section != ".text" && Section != ".bss";
}

Error verifyLayout(ArrayRef<MemoryBufferRef> Executables) {
  std::vector<std::unique_ptr<ELF64LEObjectFile>> Elves;
  std::vector<StringMap<LayoutSymbol>> Tables;
  for (MemoryBufferRef File : Executables) {
    Expected<std::unique_ptr<ELF64LEObjectFile>> Elf = openExecutable(File);
    if (!Elf)
      return Elf.takeError();
    Expected<std::vector<LayoutSymbol>> Symbols = readSymbols(**Elf);
    if (!Symbols)
      return Symbols.takeError();
    StringMap<LayoutSymbol> Table;
    for (LayoutSymbol &S : *Symbols)
      Table[S.Name] = S;
    Tables.push_back(std::move(Table));
    Elves.push_back(std::move(*Elf));
  }

  std::string Report;
  raw_string_ostream OS(Report);
  unsigned Offenders = 0;
  for (size_t I = 1; I < Tables.size(); ++I) {
    StringRef Host = AllIsas[0].Name, Other = AllIsas[I].Name;
    for (const StringMapEntry<LayoutSymbol> &Entry : Tables[0]) {
      const LayoutSymbol &A = Entry.second;
      auto It = Tables[I].find(A.Name);
      if (It == Tables[I].end())
        continue;
      const LayoutSymbol &B = It->second;
      if (!isShared(A.Section) && !isShared(B.Section))
        continue;
      if (A.Address != B.Address) {
        ++Offenders;
        OS << format("  %s '%s': %s %#llx, %s %#llx\n", A.IsFunction ? "function" : "object",
                     A.Name.c_str(), Host.data(), A.Address, Other.data(), B.Address);
        continue;
      }
      if (A.IsFunction || !hasSharedContents(A.Section) || !hasSharedContents(B.Section))
        continue;
      // Sizes differ only for objects of per-ISA code (libc is compiled per
      // ISA: musl's math tables, arch-specific messages); the program's come
      // from one IR.  Their address is shared; their bytes are their ISA's.
      if (A.Size != B.Size)
        continue;
      std::optional<StringRef> BytesA = bytesAt(*Elves[0], A.Address, A.Size);
      std::optional<StringRef> BytesB = bytesAt(*Elves[I], B.Address, B.Size);
      if (A.Size != B.Size || !BytesA || !BytesB || *BytesA != *BytesB) {
        ++Offenders;
        OS << format("  object '%s' at %#llx: initial contents differ (%s %llu bytes, %s %llu bytes)\n",
                     A.Name.c_str(), A.Address, Host.data(), A.Size, Other.data(), B.Size);
      }
    }
  }
  if (Offenders == 0)
    return Error::success();
  return verifyError(Twine(Offenders) + " symbol(s) differ between ISAs:\n" + Report);
}

} // namespace popcorn
