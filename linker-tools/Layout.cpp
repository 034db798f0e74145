//===- Layout.cpp - One address-space layout for every ISA ----------------===//
//
// The address space of a multi-ISA program, low to high:
//
//   ELF headers
//   .text                    shared: every function at one address
//   .rodata                  shared: every named constant and literal
//   .init_array .fini_array .data   shared
//   .bss                     shared
//   private, one range per ISA: .init/.fini, merged constants, unwind tables, .got
//   the other ISAs' executables, in the host's alone (read-only, loaded so
//                            that strip keeps them; no other ISA maps there)
//
// The stack maps (.llvm_stackmaps) are linked as a non-allocated section:
// popcorn-ld turns them into .popcorn.metadata and removes them, and they
// take no room in the address space in the meantime.
//
// Private sections come last because the linker script that places them
// matches "everything not placed yet", and lld gives each input section to
// the first rule that matches it, in script order.
//
// "Shared" regions are laid out once for all ISAs.  Private sections are only
// ever referenced by their own ISA's code (constant pools, unwind tables,
// the GOT) or run once at start-up before any migration (.init, .fini).
//
//===----------------------------------------------------------------------===//
#include "Layout.h"
#include "popcorn/Isa.h"
#include "popcorn/Metadata.h"
#include "popcorn/MultiIsaFile.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>

#define DEBUG_TYPE "popcorn-layout"

using namespace llvm;

namespace popcorn {

// Where the program's image starts, and the step between regions: aarch64
// kernels may use 64 KiB pages, so regions start on 64 KiB boundaries (and
// popcorn-ld links with -z max-page-size=0x10000).  The ELF and program
// headers take the first page: musl finds its program headers through
// AT_PHDR, so they must be loaded, and lld loads them only if they fit
// between the segment's aligned start and the first section.
static constexpr uint64_t ImageBase = 0x400000;
static constexpr uint64_t HeaderRoom = 0x1000;
static constexpr uint64_t RegionAlign = 0x10000;

// The start of a region after Cursor: on a new 64 KiB page, at the same
// offset in the page as Cursor, so the file needs no padding between the
// segments (a segment's file offset and address agree modulo the page size).
static uint64_t nextRegion(uint64_t Cursor) {
  return alignTo(Cursor, RegionAlign) + Cursor % RegionAlign;
}

enum class Region { Text, ReadOnly, Data, Bss, Private };

static Region regionOf(const MappedSection &S) {
  // Compiler builtins (binary128 arithmetic, ...) come from different
  // libraries per ISA that group their aliases differently; they are leaf
  // helpers whose frames never hold a migrating thread.
  if (S.File == "<internal>" || StringRef(S.File).starts_with("libpopcorn-builtins.a("))
    return Region::Private;
  // The pointer to a C++ personality routine that an ISA's unwind tables
  // name indirectly (aarch64's do, x86-64's name the routine itself): read
  // by that ISA's unwinder alone.  In the shared data, it would be where
  // home, not having it, has zeros.
  if (StringRef(S.Section).starts_with(".data.DW.ref."))
    return Region::Private;
  StringRef Out = S.OutputSection;
  if (Out == ".text")
    return Region::Text;
  if (Out == ".rodata")
    return Region::ReadOnly;
  if (Out == ".data" || Out == ".init_array" || Out == ".fini_array" ||
      Out == ".data.rel.ro")
    return Region::Data;
  if (Out == ".bss")
    return Region::Bss;
  return Region::Private;
}

namespace {
// One input section as every ISA has it.
struct Piece {
  std::string OutputSection, File, Section;
  std::vector<const MappedSection *> PerIsa; // null where an ISA lacks it
};
} // namespace

// Input sections match across ISAs by file or archive member and section
// name, which holds for our objects and for most of libc; what is left
// matches by a symbol defined at the section's start, when that name is
// unique in both links (__addtf3 from clang's builtins and from libgcc).
// The pieces of one region come in the host ISA's link order; sections that
// other ISAs alone have follow, and each output section's pieces stay
// together.
static std::vector<Piece> collectPieces(const std::vector<std::vector<MappedSection>> &Maps,
                                        Region R) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::vector<Piece> Pieces;
  std::map<Key, size_t> ByName;
  std::map<std::pair<std::string, std::string>, size_t> BySymbol; // (output, symbol)

  for (size_t I = 0; I < Maps.size(); ++I) {
    StringMap<unsigned> SymbolCount;
    for (const MappedSection &S : Maps[I])
      for (const std::string &Sym : S.Symbols)
        ++SymbolCount[Sym];
    auto unique = [&](const std::string &Sym) { return SymbolCount.lookup(Sym) == 1; };

    for (const MappedSection &S : Maps[I]) {
      if (regionOf(S) != R)
        continue;
      std::optional<size_t> Match;
      auto It = ByName.find(Key(S.OutputSection, S.File, S.Section));
      if (It != ByName.end() && !Pieces[It->second].PerIsa[I])
        Match = It->second;
      for (const std::string &Sym : S.Symbols) {
        if (Match || !unique(Sym))
          continue;
        auto BySym = BySymbol.find({S.OutputSection, Sym});
        if (BySym != BySymbol.end() && !Pieces[BySym->second].PerIsa[I])
          Match = BySym->second;
      }
      if (!Match) {
        Match = Pieces.size();
        Piece P{S.OutputSection, S.File, S.Section, {}};
        P.PerIsa.resize(Maps.size());
        Pieces.push_back(std::move(P));
        ByName.try_emplace(Key(S.OutputSection, S.File, S.Section), *Match);
        for (const std::string &Sym : S.Symbols)
          if (unique(Sym))
            BySymbol.try_emplace({S.OutputSection, Sym}, *Match);
      }
      Pieces[*Match].PerIsa[I] = &S;
    }
  }

  std::vector<std::string> Order;
  for (const Piece &P : Pieces)
    if (std::find(Order.begin(), Order.end(), P.OutputSection) == Order.end())
      Order.push_back(P.OutputSection);
  std::stable_sort(Pieces.begin(), Pieces.end(), [&](const Piece &A, const Piece &B) {
    return std::find(Order.begin(), Order.end(), A.OutputSection) <
           std::find(Order.begin(), Order.end(), B.OutputSection);
  });
  return Pieces;
}

// Whether a piece is laid out once for every ISA.  Data that one ISA alone
// has (the vtables of libunwind's cursor for that ISA's registers) is that
// ISA's own: in the shared data, another node would read home's bytes at
// its address, which are not it.  Code and constants are each node's own
// anyway, so an ISA's own functions and constants can stay in line.
static bool isLaidOutOnce(const Piece &P, Region R) {
  return (R != Region::Data && R != Region::Bss) ||
         llvm::all_of(P.PerIsa, [](const MappedSection *S) { return S != nullptr; });
}

static uint64_t placeRegion(const std::vector<std::vector<MappedSection>> &Maps, Region R,
                            uint64_t Cursor, std::vector<IsaLayout> &Layouts) {
  std::vector<Piece> Pieces = collectPieces(Maps, R);
  llvm::erase_if(Pieces, [&](const Piece &P) { return !isLaidOutOnce(P, R); });
  // An output section is as aligned as its most aligned input.
  StringMap<uint64_t> OutputAlign;
  for (const Piece &P : Pieces)
    for (const MappedSection *S : P.PerIsa)
      if (S)
        OutputAlign[P.OutputSection] = std::max(OutputAlign[P.OutputSection], S->Align);

  for (size_t N = 0; N < Pieces.size(); ++N) {
    const Piece &P = Pieces[N];
    if (N == 0 || Pieces[N - 1].OutputSection != P.OutputSection)
      Cursor = alignTo(Cursor, OutputAlign[P.OutputSection]);
    uint64_t Size = 0, Align = 1;
    for (const MappedSection *S : P.PerIsa) {
      if (!S)
        continue;
      Size = std::max(Size, S->Size);
      Align = std::max(Align, S->Align);
    }
    Cursor = alignTo(Cursor, Align);
    for (size_t I = 0; I < Maps.size(); ++I) {
      const MappedSection *S = P.PerIsa[I];
      if (!S)
        continue;
      std::vector<PlacedOutputSection> &Shared = Layouts[I].Shared;
      if (Shared.empty() || Shared.back().Name != P.OutputSection)
        Shared.push_back({P.OutputSection, Cursor, {}});
      Shared.back().Inputs.push_back({S->File, S->Section, Cursor});
    }
    LLVM_DEBUG(dbgs() << format("%#10llx %6llx ", Cursor, Size) << P.File << ":"
                      << P.Section << "\n");
    Cursor += Size;
  }
  return Cursor;
}

// Room for ISA I's private sections, its own data included: their sizes in
// the first link, each aligned, with slack in case the second link grows
// them a little.
static uint64_t privateSize(const std::vector<std::vector<MappedSection>> &Maps, size_t I) {
  uint64_t Size = 0;
  auto add = [&](const MappedSection &S) { Size = alignTo(Size, S.Align) + S.Size; };
  for (const MappedSection &S : Maps[I])
    if (regionOf(S) == Region::Private)
      add(S);
  for (Region R : {Region::Data, Region::Bss})
    for (const Piece &P : collectPieces(Maps, R))
      if (P.PerIsa[I] && !isLaidOutOnce(P, R))
        add(*P.PerIsa[I]);
  // Three permission groups, each starting on a new region boundary.
  return alignTo(Size + Size / 4 + 3 * RegionAlign, RegionAlign);
}

std::vector<IsaLayout> computeLayout(const std::vector<std::vector<MappedSection>> &Maps,
                                     uint64_t MetadataSize) {
  std::vector<IsaLayout> Layouts(Maps.size());
  uint64_t Cursor = ImageBase + HeaderRoom;
  Cursor = placeRegion(Maps, Region::Text, Cursor, Layouts);
  Cursor = placeRegion(Maps, Region::ReadOnly, nextRegion(Cursor), Layouts);
  Cursor = alignTo(Cursor, 8);
  for (IsaLayout &L : Layouts)
    L.Shared.push_back({POPCORN_METADATA_SECTION, Cursor, {}, MetadataSize});
  Cursor += MetadataSize;
  Cursor = placeRegion(Maps, Region::Data, nextRegion(Cursor), Layouts);
  Cursor = placeRegion(Maps, Region::Bss, Cursor, Layouts);
  for (size_t I = 0; I < Maps.size(); ++I) {
    Cursor = nextRegion(Cursor);
    Layouts[I].PrivateStart = Cursor;
    Cursor += privateSize(Maps, I);
    Layouts[I].PrivateEnd = Cursor;
  }
  Layouts[0].ImagesStart = alignTo(Cursor, RegionAlign);
  return Layouts;
}

// "libc.a(vfprintf.lo)" -> "*/libc.a:vfprintf.lo"; "in3.o" -> "*/in3.o"
static std::string filePattern(StringRef File) {
  size_t Paren = File.find('(');
  if (Paren == StringRef::npos)
    return ("*/" + File).str();
  return ("*/" + File.substr(0, Paren) + ":" + File.substr(Paren + 1).drop_back()).str();
}

std::string writeLinkerScript(const IsaLayout &Layout) {
  std::string Script;
  raw_string_ostream OS(Script);
  OS << "/* Generated by popcorn-ld: this ISA's part of the common layout. */\n"
     << "SECTIONS\n{\n"
     << format("  ASSERT(SIZEOF_HEADERS <= %#llx, \"popcorn-ld: the ELF headers outgrew their page\")\n",
               HeaderRoom);

  for (const PlacedOutputSection &Out : Layout.Shared) {
    if (Out.ReservedSize) {
      OS << format("  %s %#llx : { BYTE(0); . = %#llx; }\n", Out.Name.c_str(), Out.Address,
                   Out.Address + Out.ReservedSize)
         << format("  __popcorn_metadata = %#llx;\n", Out.Address)
         << format("  __popcorn_metadata_end = %#llx;\n", Out.Address + Out.ReservedSize);
      continue;
    }
    OS << format("  %s %#llx : {\n", Out.Name.c_str(), Out.Address);
    for (const Placement &P : Out.Inputs)
      OS << format("    . = %#llx; ", P.Address) << filePattern(P.File) << "(" << P.Section
         << ")\n";
    OS << "  }\n";
  }
  // Private sections, in this ISA's own address range.  The shared output
  // sections above claim their inputs first; these catch the rest.  Each
  // change of permissions starts a new page, or the later mapping of the
  // page would take the earlier one's permissions away.
  // The runtime's home keeps its private range to itself, even from a node
  // of its own ISA: the aarch64 runtime reads its .got there before it
  // could fetch a page (nodes/StartNodes.cpp: sharedRanges).
  OS << format("  . = %#llx;\n", Layout.PrivateStart)
     << format("  __popcorn_private_start = %#llx;\n", Layout.PrivateStart)
     << format("  __popcorn_private_end = %#llx;\n", Layout.PrivateEnd)
     << "  .init : { KEEP(*(.init)) }\n"
     << "  .fini : { KEEP(*(.fini)) }\n"
     << "  .text.isa : { *(.text .text.*) }\n"
     << format("  . = ALIGN(%#llx) + (. %% %#llx);\n", RegionAlign, RegionAlign)
     << "  .rodata.isa : { *(.rodata .rodata.*) }\n"
     << "  .eh_frame_hdr : { *(.eh_frame_hdr) }\n"
     << "  .eh_frame : { KEEP(*(.eh_frame)) }\n"
     << "  .gcc_except_table : { *(.gcc_except_table .gcc_except_table.*) }\n"
     << format("  . = ALIGN(%#llx) + (. %% %#llx);\n", RegionAlign, RegionAlign)
     << "  .got : { *(.got) }\n"
     << "  .got.plt : { *(.got.plt) }\n"
     << "  .data.isa : { *(.data .data.*) }\n"
     << "  .bss.isa : { *(.bss .bss.*) }\n"
     << "  .llvm_stackmaps (INFO) : { KEEP(*(.llvm_stackmaps)) }\n"
     << format("  ASSERT(. <= %#llx, \"popcorn-ld: private sections outgrew their range\")\n",
               Layout.PrivateEnd);
  // At the offset in a page where this ISA's range ends, so that the file
  // needs no padding to reach them (but for a private .bss, usually none).
  if (Layout.ImagesStart) {
    OS << format("  . = %#llx + (. %% %#llx);\n", Layout.ImagesStart, RegionAlign);
    for (const IsaInfo &Info : AllIsas) {
      if (Info.Id == HostIsa.Id)
        continue;
      for (const std::string &Name : {imageSectionName(Info.Id), sharedBytesSectionName(Info.Id)})
        OS << "  " << Name << " : { KEEP(*(" << Name << ")) }\n";
    }
  }
  OS << "}\n";
  return Script;
}

} // namespace popcorn
