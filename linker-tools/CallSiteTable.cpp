//===- CallSiteTable.cpp - The call sites of one ISA's executable ---------===//
//
// Joins two descriptions the back end wrote for each recorded call:
//   - its stack-map record (RecordCallSites.cpp encodes what each location
//     is, see popcorn/CallSiteRecord.h): where every live value lives;
//   - the DWARF call frame information in effect at the return address:
//     where the frame starts and where the caller's registers are saved.
// popcorn-ld serializes the joined tables into .popcorn.metadata and drops
// the stack maps from the executable; popcorn-inspect reads the tables back
// from the metadata, checking every offset and count against the section.
//
//===----------------------------------------------------------------------===//
#include "CallSiteTable.h"
#include "popcorn/CallSiteRecord.h"
#include "popcorn/MultiIsaFile.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/StackMapParser.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

using namespace llvm;
using namespace llvm::object;

namespace popcorn {

static Error tableError(StringRef File, const Twine &What) {
  return createStringError(inconvertibleErrorCode(), File + ": " + What);
}

// Registers a function may save for its caller (callee-saved registers, the
// frame pointer, the return address), as DWARF numbers.
static ArrayRef<uint16_t> savableRegisters(Isa I) {
  static const uint16_t X86_64[] = {3, 6, 12, 13, 14, 15, 16};
  static const uint16_t AArch64[] = {19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                                     72, 73, 74, 75, 76, 77, 78, 79};
  return I == Isa::X86_64 ? ArrayRef<uint16_t>(X86_64) : ArrayRef<uint16_t>(AArch64);
}

// musl's functions that call the program's code at the bottom of a thread's
// stack: main's caller and the pthread (and C11 thread) start routines.
static bool isThreadBase(StringRef Name) {
  return Name == "libc_start_main_stage2" || Name == "start" || Name == "start_c11";
}

using Parser = StackMapParser<endianness::little>;

// The size of one table of a .llvm_stackmaps section, so the next can be
// found (the format has no total length).
static uint64_t tableSize(const Parser &P, ArrayRef<uint8_t> Data) {
  uint64_t End = 16 + 24ull * P.getNumFunctions() + 8ull * P.getNumConstants();
  for (const auto &R : P.records()) {
    uint64_t Locations = alignTo(16 + 12ull * R.getNumLocations(), 8);
    End += alignTo(Locations + 4 + 4ull * R.getNumLiveOuts(), 8);
  }
  return std::min<uint64_t>(End, Data.size());
}

namespace {
struct Decoder {
  StringRef File;
  const Parser &P;

  Expected<int64_t> constant(const Parser::LocationAccessor &L) const {
    if (L.getKind() == Parser::LocationKind::Constant)
      return L.getSmallConstant();
    if (L.getKind() == Parser::LocationKind::ConstantIndex &&
        L.getConstantIndex() < P.getNumConstants())
      return P.getConstant(L.getConstantIndex()).getValue();
    return tableError(File, "a stack-map record does not follow popcorn's encoding");
  }

  Expected<popcorn_value> value(const Parser::LocationAccessor &L, uint64_t Kind) const {
    popcorn_value V{};
    V.kind = Kind & CSR_KIND_MASK;
    V.location_size = L.getSizeInBytes();
    if (V.kind == CSR_KIND_ALLOCA) {
      V.alloca_size = Kind >> CSR_SIZE_SHIFT;
      V.size = L.getSizeInBytes();
    } else {
      V.size = Kind >> CSR_SIZE_SHIFT;
    }
    switch (L.getKind()) {
    case Parser::LocationKind::Register:
      V.location = POPCORN_IN_REGISTER;
      V.dwarf_register = L.getDwarfRegNum();
      break;
    case Parser::LocationKind::Direct:
      V.location = POPCORN_AT_ADDRESS;
      V.dwarf_register = L.getDwarfRegNum();
      V.offset = L.getOffset();
      break;
    case Parser::LocationKind::Indirect:
      V.location = POPCORN_IN_MEMORY;
      V.dwarf_register = L.getDwarfRegNum();
      V.offset = L.getOffset();
      break;
    default: {
      Expected<int64_t> C = constant(L);
      if (!C)
        return C.takeError();
      V.location = POPCORN_CONSTANT;
      V.offset = static_cast<int32_t>(*C);
    }
    }
    return V;
  }
};
} // namespace

// A STATEPOINT record: calling convention, flags, deopt count, then the deopt
// operands: popcorn's header, then (kind, value) pairs.
static Error decodeRecord(const Decoder &D, const Parser::RecordAccessor &R, CallSite &Out) {
  unsigned N = R.getNumLocations();
  if (N < 4 || (N - 4) % 2 != 0)
    return tableError(D.File, "stack-map record " + Twine(R.getID()) +
                                  " is not a popcorn call-site record");
  Expected<int64_t> Header = D.constant(R.getLocation(3));
  if (!Header)
    return Header.takeError();
  Out.Site.flags = ((*Header & CSR_COMPLETE) ? POPCORN_SITE_COMPLETE : 0) |
                   ((*Header & CSR_LIBC) ? POPCORN_SITE_LIBC : 0) |
                   ((*Header & CSR_VA_LIST) ? POPCORN_SITE_VA_LIST : 0) |
                   ((*Header & CSR_RETURNS_TWICE) ? POPCORN_SITE_RETURNS_TWICE : 0);
  Out.Site.line = static_cast<uint32_t>(*Header >> CSR_LINE_SHIFT);
  for (unsigned I = 4; I < N; I += 2) {
    Expected<int64_t> Kind = D.constant(R.getLocation(I));
    if (!Kind)
      return Kind.takeError();
    Expected<popcorn_value> V = D.value(R.getLocation(I + 1), *Kind);
    if (!V)
      return V.takeError();
    Out.Values.push_back(*V);
  }
  return Error::success();
}

static Error addFrameRules(StringRef File, Isa I, const DWARFDebugFrame &EhFrame,
                           std::vector<CallSite> &Sites) {
  // FDEs by start address, to find the one covering each return address.
  std::map<uint64_t, const dwarf::FDE *> Fdes;
  for (const dwarf::FrameEntry &Entry : EhFrame.entries())
    if (const auto *Fde = dyn_cast<dwarf::FDE>(&Entry))
      Fdes[Fde->getInitialLocation()] = Fde;

  for (CallSite &S : Sites) {
    uint64_t Ra = S.Site.return_address;
    auto It = Fdes.upper_bound(Ra - 1);
    const dwarf::FDE *Fde = It == Fdes.begin() ? nullptr : std::prev(It)->second;
    if (!Fde || Ra > Fde->getInitialLocation() + Fde->getAddressRange())
      return tableError(File, "no unwind information for the call site at 0x" +
                                  Twine::utohexstr(Ra) + " in " + S.FunctionName);
    Expected<dwarf::UnwindTable> Table = dwarf::UnwindTable::create(Fde);
    if (!Table)
      return tableError(File, "bad unwind information for " + S.FunctionName + ": " +
                                  toString(Table.takeError()));
    // The frame as the call instruction left it, which libunwind reads too
    // (at Ra - 1): the row at the return address itself may already be the
    // epilogue's: aarch64's moves the CFA from x29 to sp right after a last
    // call, and a frame recorded with it would have its frame pointer left
    // unwritten by a rewrite.
    const dwarf::UnwindRow *Row = nullptr;
    for (const dwarf::UnwindRow &Candidate : *Table)
      if (Candidate.hasAddress() && Candidate.getAddress() < Ra)
        Row = &Candidate;
    if (!Row || Row->getCFAValue().getLocation() != dwarf::UnwindLocation::RegPlusOffset)
      return tableError(File, "the frame of " + S.FunctionName +
                                  " has a CFA rule popcorn cannot follow");
    S.Frame.cfa_register = Row->getCFAValue().getRegister();
    S.Frame.cfa_offset = Row->getCFAValue().getOffset();
    // A rewrite places the stack pointer frame_size below the CFA; arguments
    // pushed for the call (x86-64's call frame optimization, which
    // popcorn's back ends turn off) would put it elsewhere, and so does an
    // unwind table that misplaces the frame (LLVM 19's x86-64 back end at
    // -O0, on a block laid out after an epilogue: C++20 coroutines).
    uint16_t Sp = I == Isa::X86_64 ? 7 : 31;
    if (S.Frame.cfa_register == Sp && uint64_t(S.Frame.cfa_offset) != S.Frame.frame_size)
      return tableError(File, "the frame of " + S.FunctionName + " at the call site 0x" +
                                  utohexstr(S.Site.return_address) + " is " +
                                  Twine(S.Frame.cfa_offset) + " bytes, not its fixed " +
                                  Twine(S.Frame.frame_size) +
                                  " in its unwind table: a thread could not move from there "
                                  "(seen at -O0 on C++20 coroutines; build them with -O1 or "
                                  "more)");
    for (uint16_t Reg : savableRegisters(I)) {
      std::optional<dwarf::UnwindLocation> Loc = Row->getRegisterLocations().getRegisterLocation(Reg);
      if (Loc && Loc->getLocation() == dwarf::UnwindLocation::CFAPlusOffset)
        S.Saved.push_back({Reg, 0, Loc->getOffset()});
    }
  }
  return Error::success();
}

namespace {
// An executable opened as a 64-bit little-endian ELF file, and its ISA.
struct OpenedElf {
  std::unique_ptr<ObjectFile> Owner;
  const ELF64LEObjectFile *Elf;
  Isa Target;
};
} // namespace

static Expected<OpenedElf> openElf(MemoryBufferRef Executable) {
  StringRef File = Executable.getBufferIdentifier();
  Expected<std::unique_ptr<ObjectFile>> Obj = ObjectFile::createObjectFile(Executable);
  if (!Obj)
    return tableError(File, toString(Obj.takeError()));
  auto *Elf = dyn_cast<ELF64LEObjectFile>(Obj->get());
  if (!Elf)
    return tableError(File, "not a 64-bit little-endian ELF file");
  Isa Target = Elf->getELFFile().getHeader().e_machine == ELF::EM_AARCH64 ? Isa::AArch64
                                                                          : Isa::X86_64;
  return OpenedElf{std::move(*Obj), Elf, Target};
}

namespace {
// The executable's functions by address, from its symbol table.
struct FunctionNames {
  std::map<uint64_t, std::string> ByAddress;

  std::string nameAt(uint64_t Address) const {
    auto It = ByAddress.find(Address);
    return It != ByAddress.end() ? It->second : "<unknown function>";
  }
};
} // namespace

// Bases, if not null, gets the functions that start threads.
static FunctionNames functionNames(const ELF64LEObjectFile &Elf,
                                   std::vector<popcorn_code_range> *Bases) {
  FunctionNames Functions;
  for (const ELFSymbolRef &Sym : Elf.symbols()) {
    Expected<uint64_t> Address = Sym.getAddress();
    Expected<StringRef> Name = Sym.getName();
    if (Address && Name && Sym.getELFType() == ELF::STT_FUNC) {
      Functions.ByAddress[*Address] = Name->str();
      if (Bases && isThreadBase(*Name))
        Bases->push_back({*Address, *Address + Sym.getSize()});
    }
    consumeError(Address.takeError());
    consumeError(Name.takeError());
  }
  return Functions;
}

Expected<CallSiteTable> readCallSites(MemoryBufferRef Executable) {
  StringRef File = Executable.getBufferIdentifier();
  Expected<OpenedElf> Opened = openElf(Executable);
  if (!Opened)
    return Opened.takeError();
  const ELF64LEObjectFile *Elf = Opened->Elf;
  CallSiteTable Table;
  Table.Target = Opened->Target;

  FunctionNames Functions = functionNames(*Elf, &Table.Bases);

  for (const SectionRef &Section : Elf->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name || *Name != ".llvm_stackmaps") {
      consumeError(Name.takeError());
      continue;
    }
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents)
      return tableError(File, ".llvm_stackmaps: " + toString(Contents.takeError()));
    ArrayRef<uint8_t> Data = arrayRefFromStringRef(*Contents);
    // An inline function of C++ (a COMDAT group) is compiled into every
    // object that uses it, with code that may differ (another -O, other
    // inlining); the linker keeps the first copy, in input order, and
    // drops the others' code, but not their stack maps, whose function
    // address is then the kept copy's.  The stack maps are concatenated in
    // the same input order: the first function record of an address is
    // the kept copy's.
    DenseSet<uint64_t> Described;
    while (!Data.empty()) {
      if (Data.size() < 16 || Data[0] != 3)
        return tableError(File, ".llvm_stackmaps holds a table that is not stack map version 3");
      Parser P(Data);
      Decoder D{File, P};
      auto Records = P.records_begin();
      for (const auto &F : P.functions()) {
        bool Dropped = !Described.insert(F.getFunctionAddress()).second;
        for (uint64_t N = 0; N < F.getRecordCount(); ++N, ++Records) {
          if (Dropped)
            continue;
          CallSite S;
          S.Site.id = Records->getID();
          S.Frame.function = F.getFunctionAddress();
          S.Site.return_address = F.getFunctionAddress() + Records->getInstructionOffset();
          // Bytes from the CFA down to the stack pointer.  x86-64's stack
          // size leaves out the return address the call pushed.  A frame
          // realigned or sized at run time has none ("unknown", all ones):
          // its sites cannot be resumed, as a rewrite could not lay it out
          // (the compiler keeps such objects off the native stack; this is
          // for code it did not see through).
          bool FixedFrame = F.getStackSize() != UINT64_MAX;
          S.Frame.frame_size =
              FixedFrame ? F.getStackSize() + (Table.Target == Isa::X86_64 ? 8 : 0) : 0;
          S.FunctionName = Functions.nameAt(S.Frame.function);
          if (Error E = decodeRecord(D, *Records, S))
            return std::move(E);
          if (!FixedFrame)
            S.Site.flags &= ~POPCORN_SITE_COMPLETE;
          Table.Sites.push_back(std::move(S));
        }
      }
      Data = Data.drop_front(tableSize(P, Data));
    }
  }

  if (!Table.Sites.empty()) {
    std::unique_ptr<DWARFContext> Dwarf = DWARFContext::create(*Elf);
    Expected<const DWARFDebugFrame *> EhFrame = Dwarf->getEHFrame();
    if (!EhFrame)
      return tableError(File, ".eh_frame: " + toString(EhFrame.takeError()));
    if (Error E = addFrameRules(File, Table.Target, **EhFrame, Table.Sites))
      return std::move(E);
  }
  llvm::sort(Table.Sites, [](const CallSite &A, const CallSite &B) {
    return A.Site.return_address < B.Site.return_address;
  });
  return Table;
}

template <typename T> static uint32_t append(std::vector<uint8_t> &Blob, ArrayRef<T> Items) {
  Blob.resize(alignTo(Blob.size(), 8));
  uint32_t Offset = Blob.size();
  const uint8_t *Bytes = reinterpret_cast<const uint8_t *>(Items.data());
  Blob.insert(Blob.end(), Bytes, Bytes + Items.size() * sizeof(T));
  return Offset;
}

// The entries of many sites' lists, each list a slice of one array.  A
// list already there is not repeated, and one that starts with the list
// last added grows it: the sites of a function mostly name the same saved
// registers and many of the same slots (SQLite's 20,000 sites named 246,000
// values, 149 at each of its bytecode loop's 525 calls).
template <typename T> class SharedLists {
public:
  // Where List starts in Items().
  uint32_t add(ArrayRef<T> List) {
    if (List.empty())
      return 0;
    auto [It, New] = Starts.try_emplace(bytes(List), Items.size());
    if (!New)
      return It->second;
    ArrayRef<T> Last = ArrayRef<T>(Items).take_back(Items.size() - LastStart);
    if (LastStart < Items.size() && List.size() > Last.size() &&
        bytes(List.take_front(Last.size())) == bytes(Last)) {
      It->second = LastStart;
      Items.insert(Items.end(), List.begin() + Last.size(), List.end());
      return LastStart;
    }
    LastStart = Items.size();
    Items.insert(Items.end(), List.begin(), List.end());
    return LastStart;
  }
  const std::vector<T> &items() const { return Items; }

private:
  static StringRef bytes(ArrayRef<T> List) {
    return StringRef(reinterpret_cast<const char *>(List.data()), List.size() * sizeof(T));
  }
  std::vector<T> Items;
  uint32_t LastStart = 0;
  StringMap<uint32_t> Starts; // a list's bytes, where it starts
};

// Each distinct value description once; a site's list names them by a
// 16-bit index.
class DistinctValues {
public:
  // Index of V, or nullopt when a 16-bit index cannot name it.
  std::optional<uint16_t> add(const popcorn_value &V) {
    StringRef Bytes(reinterpret_cast<const char *>(&V), sizeof V);
    auto [It, New] = Index.try_emplace(Bytes, Items.size());
    if (New) {
      if (Items.size() > UINT16_MAX)
        return std::nullopt;
      Items.push_back(V);
    }
    return uint16_t(It->second);
  }
  const std::vector<popcorn_value> &items() const { return Items; }

private:
  std::vector<popcorn_value> Items;
  StringMap<uint32_t> Index;
};

Expected<std::vector<uint8_t>> serializeMetadata(ArrayRef<CallSiteTable> Tables) {
  std::vector<uint8_t> Blob(sizeof(popcorn_metadata) + Tables.size() * sizeof(popcorn_isa_metadata));
  std::vector<popcorn_isa_metadata> Isas;
  for (const CallSiteTable &T : Tables) {
    std::vector<popcorn_call_site> Sites;
    std::vector<popcorn_frame> Frames;
    std::map<std::tuple<uint64_t, uint32_t, uint16_t, uint16_t, int32_t, uint32_t>, uint32_t>
        FrameIndex; // a frame's fields, its index: one per function and layout
    DistinctValues Values;
    SharedLists<uint16_t> ValueLists;
    SharedLists<popcorn_saved_register> Saved;
    for (const CallSite &S : T.Sites) {
      popcorn_frame F = S.Frame;
      F.first_saved = Saved.add(S.Saved);
      F.n_saved = S.Saved.size();
      auto [It, New] = FrameIndex.try_emplace(
          {F.function, F.first_saved, F.n_saved, F.cfa_register, F.cfa_offset, F.frame_size},
          Frames.size());
      if (New)
        Frames.push_back(F);
      popcorn_call_site C = S.Site;
      C.frame = It->second;
      SmallVector<uint16_t, 16> List;
      for (const popcorn_value &V : S.Values) {
        std::optional<uint16_t> Index = Values.add(V);
        if (!Index)
          return createStringError(inconvertibleErrorCode(),
                                   Twine("the ") + info(T.Target).Name +
                                       " call sites describe more than 65,536 distinct values: "
                                       "the metadata cannot index them");
        List.push_back(*Index);
      }
      C.first_value = ValueLists.add(List);
      C.n_values = S.Values.size();
      Sites.push_back(C);
    }
    std::vector<uint32_t> ById(Sites.size());
    for (uint32_t I = 0; I < ById.size(); ++I)
      ById[I] = I;
    llvm::stable_sort(ById, [&](uint32_t A, uint32_t B) { return Sites[A].id < Sites[B].id; });

    popcorn_isa_metadata M{};
    M.elf_machine = info(T.Target).ElfMachine;
    M.n_sites = Sites.size();
    M.sites = append<popcorn_call_site>(Blob, Sites);
    M.sites_by_id = append<uint32_t>(Blob, ById);
    M.n_frames = Frames.size();
    M.frames = append<popcorn_frame>(Blob, Frames);
    M.n_values = Values.items().size();
    M.values = append<popcorn_value>(Blob, Values.items());
    M.n_value_lists = ValueLists.items().size();
    M.value_lists = append<uint16_t>(Blob, ValueLists.items());
    M.n_saved = Saved.items().size();
    M.saved = append<popcorn_saved_register>(Blob, Saved.items());
    M.n_bases = T.Bases.size();
    M.bases = append<popcorn_code_range>(Blob, T.Bases);
    Isas.push_back(M);
  }
  Blob.resize(alignTo(Blob.size(), 8));
  popcorn_metadata Header{POPCORN_METADATA_MAGIC, POPCORN_METADATA_VERSION,
                          static_cast<uint16_t>(Tables.size()),
                          static_cast<uint32_t>(Blob.size()), 0};
  memcpy(Blob.data(), &Header, sizeof Header);
  memcpy(Blob.data() + sizeof Header, Isas.data(), Isas.size() * sizeof(popcorn_isa_metadata));
  return Blob;
}

void renumberSiteIds(MutableArrayRef<CallSiteTable> Tables) {
  std::vector<uint64_t> Ids;
  for (const CallSiteTable &T : Tables)
    for (const CallSite &S : T.Sites)
      Ids.push_back(S.Site.id);
  llvm::sort(Ids);
  Ids.erase(std::unique(Ids.begin(), Ids.end()), Ids.end());
  for (CallSiteTable &T : Tables)
    for (CallSite &S : T.Sites)
      S.Site.id = llvm::lower_bound(Ids, S.Site.id) - Ids.begin();
}

Expected<std::vector<uint8_t>> packMetadata(ArrayRef<uint8_t> Blob) {
  if (!compression::zlib::isAvailable())
    return createStringError(inconvertibleErrorCode(),
                             "cannot compress the metadata: this LLVM was built without zlib");
  std::vector<uint8_t> Shuffled(Blob.size());
  if (!popcorn_shuffle_sites(Shuffled.data(), Blob.data(), Blob.size(), /*Pack=*/1))
    return createStringError(inconvertibleErrorCode(), "the metadata blob is malformed");
  SmallVector<uint8_t, 0> Stream;
  compression::zlib::compress(Shuffled, Stream, compression::zlib::BestSizeCompression);
  popcorn_packed_metadata Header{};
  memcpy(Header.magic, POPCORN_PACKED_METADATA_MAGIC, sizeof Header.magic);
  Header.inflated_size = Blob.size();
  Header.compressed_size = Stream.size();
  std::vector<uint8_t> Packed(sizeof Header);
  memcpy(Packed.data(), &Header, sizeof Header);
  Packed.insert(Packed.end(), Stream.begin(), Stream.end());
  return Packed;
}

static Error damaged(StringRef File, const Twine &Why) {
  return tableError(File, Twine("the migration metadata in section ") + POPCORN_METADATA_SECTION +
                              " is damaged: " + Why);
}

Expected<std::vector<uint8_t>> unpackMetadata(StringRef Section, StringRef File) {
  popcorn_packed_metadata Header;
  if (Section.size() < sizeof Header)
    return damaged(File, "it is shorter than its header");
  memcpy(&Header, Section.data(), sizeof Header);
  if (memcmp(Header.magic, POPCORN_PACKED_METADATA_MAGIC, sizeof Header.magic))
    return damaged(File, "it does not start with " POPCORN_PACKED_METADATA_MAGIC
                         " (linked by another popcorn-ld?)");
  if (Header.compressed_size > Section.size() - sizeof Header)
    return damaged(File, "its header says " + Twine(Header.compressed_size) +
                             " compressed bytes, the section has room for " +
                             Twine(Section.size() - sizeof Header));
  SmallVector<uint8_t, 0> Shuffled;
  if (Error E = compression::zlib::decompress(
          arrayRefFromStringRef(Section.substr(sizeof Header, Header.compressed_size)), Shuffled,
          Header.inflated_size))
    return damaged(File, "the zlib stream does not inflate to " + Twine(Header.inflated_size) +
                             " bytes (" + toString(std::move(E)) + ")");
  if (Shuffled.size() != Header.inflated_size)
    return damaged(File, "the zlib stream inflates to " + Twine(Shuffled.size()) + " bytes, not " +
                             Twine(Header.inflated_size));
  std::vector<uint8_t> Blob(Shuffled.size());
  if (!popcorn_shuffle_sites(Blob.data(), Shuffled.data(), Shuffled.size(), /*Pack=*/0))
    return damaged(File, "the inflated blob is not popcorn metadata of version " +
                             Twine(POPCORN_METADATA_VERSION) + ", or its sites lie outside it");
  return Blob;
}

static Expected<StringRef> metadataSection(const ObjectFile &Obj, StringRef File) {
  Expected<std::optional<ElfSection>> Section = findSection(Obj, POPCORN_METADATA_SECTION);
  if (!Section)
    return Section.takeError();
  if (!*Section)
    return tableError(File, Twine("no ") + POPCORN_METADATA_SECTION + " section");
  return (*Section)->Contents;
}

Expected<StringRef> metadataSection(MemoryBufferRef Executable) {
  StringRef File = Executable.getBufferIdentifier();
  Expected<std::unique_ptr<ObjectFile>> Obj = ObjectFile::createObjectFile(Executable);
  if (!Obj)
    return tableError(File, toString(Obj.takeError()));
  return metadataSection(**Obj, File);
}

namespace {
// Copies of the blob's structures, each checked to lie inside it (the
// section's bytes need not be aligned for them).
struct BlobReader {
  StringRef File;
  StringRef Blob;

  template <typename T> Error read(uint64_t Offset, T &Out, const char *What) const {
    if (Offset > Blob.size() || Blob.size() - Offset < sizeof(T))
      return tableError(File, Twine(POPCORN_METADATA_SECTION) + ": " + What +
                                  " lies outside the metadata");
    memcpy(&Out, Blob.data() + Offset, sizeof(T));
    return Error::success();
  }

  template <typename T>
  Error readArray(uint32_t Offset, uint64_t Count, std::vector<T> &Out, const char *What) const {
    if (Offset > Blob.size() || (Blob.size() - Offset) / sizeof(T) < Count)
      return tableError(File, Twine(POPCORN_METADATA_SECTION) + ": " + What +
                                  " lie outside the metadata");
    Out.resize(Count);
    if (Count)
      memcpy(Out.data(), Blob.data() + Offset, Count * sizeof(T));
    return Error::success();
  }
};
} // namespace

Expected<CallSiteTable> readMetadataCallSites(MemoryBufferRef Executable) {
  StringRef File = Executable.getBufferIdentifier();
  Expected<OpenedElf> Opened = openElf(Executable);
  if (!Opened)
    return Opened.takeError();
  const ELF64LEObjectFile *Elf = Opened->Elf;
  uint16_t Machine = Elf->getELFFile().getHeader().e_machine;
  CallSiteTable Table;
  Table.Target = Opened->Target;

  Expected<StringRef> Section = metadataSection(*Elf, File);
  if (!Section)
    return Section.takeError();
  Expected<std::vector<uint8_t>> Blob = unpackMetadata(*Section, File);
  if (!Blob)
    return Blob.takeError();
  BlobReader R{File, toStringRef(ArrayRef<uint8_t>(*Blob))};
  popcorn_metadata Header;
  if (Error E = R.read(0, Header, "the header"))
    return std::move(E);
  if (Header.magic != POPCORN_METADATA_MAGIC || Header.version != POPCORN_METADATA_VERSION)
    return tableError(File, Twine(POPCORN_METADATA_SECTION) +
                                " does not hold popcorn metadata of version " +
                                Twine(POPCORN_METADATA_VERSION));
  if (Header.total_size > R.Blob.size())
    return tableError(File, Twine(POPCORN_METADATA_SECTION) + " is shorter than its metadata");
  R.Blob = R.Blob.take_front(Header.total_size);

  std::vector<popcorn_isa_metadata> Isas;
  if (Error E = R.readArray(sizeof Header, Header.n_isas, Isas, "the ISAs' entries"))
    return std::move(E);
  const popcorn_isa_metadata *Mine = nullptr;
  for (const popcorn_isa_metadata &M : Isas)
    if (M.elf_machine == Machine)
      Mine = &M;
  if (!Mine)
    return tableError(File, Twine(POPCORN_METADATA_SECTION) + " has no entry for ELF machine " +
                                Twine(Machine));

  std::vector<popcorn_call_site> Sites;
  std::vector<popcorn_frame> Frames;
  std::vector<popcorn_value> Values;
  std::vector<uint16_t> ValueLists;
  std::vector<popcorn_saved_register> Saved;
  if (Error E = R.readArray(Mine->sites, Mine->n_sites, Sites, "the call sites"))
    return std::move(E);
  if (Error E = R.readArray(Mine->frames, Mine->n_frames, Frames, "the frames"))
    return std::move(E);
  if (Error E = R.readArray(Mine->values, Mine->n_values, Values, "the values"))
    return std::move(E);
  if (Error E = R.readArray(Mine->value_lists, Mine->n_value_lists, ValueLists,
                            "the sites' value lists"))
    return std::move(E);
  for (uint32_t I = 0; I < ValueLists.size(); ++I)
    if (ValueLists[I] >= Values.size())
      return tableError(File, Twine(POPCORN_METADATA_SECTION) + ": value list entry " + Twine(I) +
                                  " names value " + Twine(ValueLists[I]) + " of " +
                                  Twine(Values.size()));
  if (Error E = R.readArray(Mine->saved, Mine->n_saved, Saved, "the saved registers"))
    return std::move(E);
  if (Error E = R.readArray(Mine->bases, Mine->n_bases, Table.Bases, "the thread bases"))
    return std::move(E);

  FunctionNames Functions = functionNames(*Elf, nullptr);

  for (const popcorn_call_site &C : Sites) {
    if (C.frame >= Frames.size() || uint64_t(C.first_value) + C.n_values > ValueLists.size() ||
        uint64_t(Frames[C.frame].first_saved) + Frames[C.frame].n_saved > Saved.size())
      return tableError(File, Twine(POPCORN_METADATA_SECTION) + ": the call site at 0x" +
                                  Twine::utohexstr(C.return_address) +
                                  " names a frame, values or registers it does not have");
    const popcorn_frame &F = Frames[C.frame];
    CallSite S;
    S.Site = C;
    S.Site.frame = S.Site.first_value = 0;
    S.Frame = F;
    S.Frame.first_saved = 0;
    for (uint32_t I = C.first_value; I < C.first_value + C.n_values; ++I)
      S.Values.push_back(Values[ValueLists[I]]);
    S.Saved.assign(Saved.begin() + F.first_saved, Saved.begin() + F.first_saved + F.n_saved);
    S.FunctionName = Functions.nameAt(F.function);
    Table.Sites.push_back(std::move(S));
  }
  return Table;
}

// What must agree across ISAs for one ID: the values, by kind and size.
static std::string shape(const CallSite &S) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << S.Values.size() << " values:";
  for (const popcorn_value &V : S.Values)
    OS << " " << (V.kind == POPCORN_ALLOCA ? "alloca" : V.kind == POPCORN_POINTER ? "ptr" : "val")
       << V.size << (V.kind == POPCORN_ALLOCA ? "[" + std::to_string(V.alloca_size) + "]" : "");
  return Text;
}

// "function 'f' (line 12)", or for libc "libc function 'f'".
static std::string where(const CallSite &S) {
  std::string Text = ((S.Site.flags & POPCORN_SITE_LIBC) ? "libc function '" : "function '") +
                     S.FunctionName + "'";
  if (S.Site.line)
    Text += " (line " + std::to_string(S.Site.line) + ")";
  return Text;
}

Error verifyCallSites(MutableArrayRef<CallSiteTable> Tables) {
  // An ID may have several return addresses when the back end duplicated a
  // block; each must have the same shape.
  std::vector<std::multimap<uint64_t, CallSite *>> ById(Tables.size());
  for (size_t I = 0; I < Tables.size(); ++I)
    for (CallSite &S : Tables[I].Sites)
      ById[I].emplace(S.Site.id, &S);

  // libc's sites too: its callback files are compiled so that each ISA's
  // optimizer keeps their calls alike (popcorn-libc-records-plugin).
  std::string Report;
  raw_string_ostream OS(Report);
  unsigned Offenders = 0;
  for (size_t I = 0; I < Tables.size(); ++I)
    for (size_t J = 0; J < Tables.size(); ++J) {
      if (I == J)
        continue;
      std::string Here = std::string(info(Tables[I].Target).Name);
      std::string There = std::string(info(Tables[J].Target).Name);
      for (const auto &[Id, Site] : ById[I]) {
        auto Other = ById[J].find(Id);
        if (Other == ById[J].end()) {
          ++Offenders;
          OS << format("  call site %#llx in %s exists on %s but not on %s\n", Id,
                       where(*Site).c_str(), Here.c_str(), There.c_str());
        } else if (I < J && shape(*Site) != shape(*Other->second)) {
          ++Offenders;
          OS << format("  call site %#llx in %s differs: %s has %s; %s has %s\n", Id,
                       where(*Site).c_str(), Here.c_str(), shape(*Site).c_str(),
                       There.c_str(), shape(*Other->second).c_str());
        }
      }
    }
  if (!Offenders)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           Twine(Offenders) + " call-site mismatch(es) between ISAs:\n" + Report);
}

} // namespace popcorn
