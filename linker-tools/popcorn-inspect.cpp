//===- popcorn-inspect.cpp - Look inside multi-ISA files ------------------===//
//
//   popcorn-inspect isas FILE                     the ISAs FILE holds
//   popcorn-inspect extract --isa ISA FILE OUT    write ISA's ELF file: from an
//                                                 executable, one that can be home
//                                                 (it carries FILE)
//   popcorn-inspect layout PROG                   every symbol's address per ISA
//   popcorn-inspect verify PROG                   one layout and matching call
//                                                 sites on all ISAs?
//   popcorn-inspect callsites PROG [--isa ISA] [--function NAME]
//   popcorn-inspect trace [--svg OUT] TRACE     summarize a POPCORN_TRACE file
//                                                 (and draw its timeline)
//
// verify and callsites read the call sites from .popcorn.metadata, the
// tables the runtime uses (popcorn-ld leaves no stack maps in executables).
//
//===----------------------------------------------------------------------===//
#include "CallSiteTable.h"
#include "Files.h"
#include "Timeline.h"
#include "VerifyLayout.h"
#include "popcorn/Isa.h"
#include "popcorn/Metadata.h"
#include "popcorn/MultiIsaFile.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>

using namespace llvm;
using namespace popcorn;

static const char *ToolName = "popcorn-inspect";

[[noreturn]] static void fail(const Twine &Message) {
  WithColor::error(errs(), ToolName) << Message << "\n";
  exit(1);
}

static const char *const Usage =
    "usage: popcorn-inspect isas FILE\n"
    "       popcorn-inspect extract --isa ISA FILE OUTPUT\n"
    "       popcorn-inspect layout PROG\n"
    "       popcorn-inspect verify PROG\n"
    "       popcorn-inspect callsites PROG [--isa ISA] [--function NAME]\n"
    "       popcorn-inspect trace [--svg OUT.svg] TRACE.json\n"
    "Looks inside the objects and executables popcorn-clang builds.\n";

[[noreturn]] static void usage() {
  errs() << Usage;
  exit(2);
}

static std::unique_ptr<MemoryBuffer> readFile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = readWholeFile(Path);
  if (!Buffer)
    fail(toString(Buffer.takeError()));
  return std::move(*Buffer);
}

static void writeFile(StringRef Path, StringRef Data, bool Executable) {
  if (Error E = writeWholeFile(Path, Data, Executable))
    fail(toString(std::move(E)));
}

static int listIsas(StringRef Path) {
  std::unique_ptr<MemoryBuffer> File = readFile(Path);
  Expected<Isa> Host = elfIsa(File->getMemBufferRef());
  if (!Host)
    fail(toString(Host.takeError()));
  outs() << info(*Host).Name << "\n";
  for (const IsaInfo &Info : AllIsas) {
    if (Info.Id == *Host)
      continue;
    Expected<std::unique_ptr<MemoryBuffer>> Image = findIsaImage(File->getMemBufferRef(), Info.Id);
    if (!Image)
      fail(toString(Image.takeError()));
    if (*Image)
      outs() << Info.Name << "\n";
  }
  return 0;
}

static bool isExecutable(const MemoryBuffer &File) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(File.getMemBufferRef());
  if (!Obj)
    fail(toString(Obj.takeError()));
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj->get());
  return Elf && Elf->getEType() == ELF::ET_EXEC;
}

// Image, extracted from the multi-ISA executable Host, carrying Host: so
// that it can be home on its ISA and start Host's ISA's nodes.  Host is
// stored as popcorn-ld stores an image, without the metadata they share.
static std::unique_ptr<MemoryBuffer> homeOn(const MemoryBuffer &Image, const MemoryBuffer &Host) {
  Expected<StoredImage> Stored =
      storeIsaImage({HostIsa.Id, Host.getMemBufferRef()}, {POPCORN_METADATA_SECTION});
  if (!Stored)
    fail(toString(Stored.takeError()));
  Expected<std::unique_ptr<MemoryBuffer>> Home = addStoredImage(Image.getMemBufferRef(), *Stored);
  if (!Home)
    fail(toString(Home.takeError()));
  return std::move(*Home);
}

static int extract(StringRef IsaName, StringRef Path, StringRef OutPath) {
  std::optional<Isa> Wanted = parseIsa(IsaName);
  if (!Wanted)
    fail("unknown ISA '" + IsaName + "'");
  std::unique_ptr<MemoryBuffer> File = readFile(Path);
  Expected<Isa> Host = elfIsa(File->getMemBufferRef());
  if (!Host)
    fail(toString(Host.takeError()));
  bool Executable = sys::fs::can_execute(Path);
  if (*Wanted == *Host) {
    Expected<std::unique_ptr<MemoryBuffer>> Plain = stripIsaImages(File->getMemBufferRef());
    if (!Plain)
      fail(toString(Plain.takeError()));
    writeFile(OutPath, (*Plain)->getBuffer(), Executable);
    // A user who extracted the aarch64 file once may do it again on the
    // result, expecting the same file: say what was written instead.
    if (isExecutable(*File) && (*Plain)->getBufferSize() != File->getBufferSize())
      WithColor::note(errs(), ToolName)
          << Path << " is already an executable for " << IsaName << ": " << OutPath << " is its plain " << IsaName
          << " executable, without the other ISAs' images, and cannot move; copy " << Path
          << " to keep them\n";
    return 0;
  }
  Expected<std::unique_ptr<MemoryBuffer>> Image = findIsaImage(File->getMemBufferRef(), *Wanted);
  if (!Image)
    fail(toString(Image.takeError()));
  if (!*Image)
    fail(Path + " has no " + IsaName + " image");
  if (*Wanted == HostIsa.Id || !isExecutable(*File)) {
    writeFile(OutPath, (*Image)->getBuffer(), Executable);
    return 0;
  }
  writeFile(OutPath, homeOn(**Image, *File)->getBuffer(), Executable);
  return 0;
}

// Every ISA's executable inside a multi-ISA executable (home on any ISA),
// in AllIsas order, each in its own (aligned) buffer.
static std::vector<std::unique_ptr<MemoryBuffer>> images(const MemoryBuffer &File) {
  Expected<Isa> Home = elfIsa(File.getMemBufferRef());
  if (!Home)
    fail(toString(Home.takeError()));
  std::vector<std::unique_ptr<MemoryBuffer>> Images;
  for (const IsaInfo &Info : AllIsas) {
    if (Info.Id == *Home) {
      Images.push_back(MemoryBuffer::getMemBufferCopy(File.getBuffer(), File.getBufferIdentifier()));
      continue;
    }
    Expected<std::unique_ptr<MemoryBuffer>> Image = findIsaImage(File.getMemBufferRef(), Info.Id);
    if (!Image)
      fail(toString(Image.takeError()));
    if (!*Image)
      fail(File.getBufferIdentifier() + " has no " + Info.Name +
           " image: it was not built by popcorn-clang, or a strip tool removed it");
    Images.push_back(MemoryBuffer::getMemBufferCopy(
        (*Image)->getBuffer(), File.getBufferIdentifier() + "[" + Info.Name + "]"));
  }
  return Images;
}

static int printLayout(StringRef Path) {
  std::unique_ptr<MemoryBuffer> File = readFile(Path);
  std::map<std::string, std::vector<const LayoutSymbol *>> Rows;
  std::vector<std::vector<LayoutSymbol>> Symbols;
  for (const std::unique_ptr<MemoryBuffer> &Image : images(*File)) {
    Expected<std::vector<LayoutSymbol>> S = readLayoutSymbols(Image->getMemBufferRef());
    if (!S)
      fail(toString(S.takeError()));
    Symbols.push_back(std::move(*S));
  }
  std::vector<std::string> Order;
  for (size_t I = 0; I < Symbols.size(); ++I)
    for (const LayoutSymbol &S : Symbols[I]) {
      std::vector<const LayoutSymbol *> &Row = Rows[S.Name];
      if (Row.empty()) {
        Row.resize(Symbols.size());
        Order.push_back(S.Name);
      }
      Row[I] = &S;
    }
  outs() << "kind     symbol                                  ";
  for (const IsaInfo &Info : AllIsas)
    outs() << right_justify((std::string(Info.Name) + " addr"), 19) << "     size";
  outs() << "\n";
  for (const std::string &Name : Order) {
    const std::vector<const LayoutSymbol *> &Row = Rows[Name];
    const LayoutSymbol *First = *llvm::find_if(Row, [](const LayoutSymbol *S) { return S; });
    outs() << left_justify(First->IsFunction ? "function" : "object", 8) << " "
           << left_justify(Name, 40);
    for (const LayoutSymbol *S : Row) {
      if (S)
        outs() << format(" %#18llx %8llu", S->Address, S->Size);
      else
        outs() << "                  -        -";
    }
    outs() << "\n";
  }
  return 0;
}

static int verify(StringRef Path) {
  std::unique_ptr<MemoryBuffer> File = readFile(Path);
  std::vector<MemoryBufferRef> Images;
  std::vector<std::unique_ptr<MemoryBuffer>> Owned = images(*File);
  for (const std::unique_ptr<MemoryBuffer> &Image : Owned)
    Images.push_back(Image->getMemBufferRef());
  if (Error E = verifyLayout(Images)) {
    errs() << Path << ": the ISAs' layouts disagree:\n" << toString(std::move(E));
    return 1;
  }
  // One blob for all ISAs: every image must carry the same bytes.
  std::optional<StringRef> FirstMetadata;
  for (MemoryBufferRef Image : Images) {
    Expected<StringRef> Metadata = metadataSection(Image);
    if (!Metadata)
      fail(toString(Metadata.takeError()));
    if (FirstMetadata && *FirstMetadata != *Metadata) {
      errs() << Path << ": the ISAs' images carry different " << POPCORN_METADATA_SECTION
             << " sections\n";
      return 1;
    }
    FirstMetadata = *Metadata;
  }
  std::vector<CallSiteTable> Tables;
  size_t Sites = 0;
  for (MemoryBufferRef Image : Images) {
    Expected<CallSiteTable> Table = readMetadataCallSites(Image);
    if (!Table)
      fail(toString(Table.takeError()));
    Sites += Table->Sites.size();
    Tables.push_back(std::move(*Table));
  }
  if (Error E = verifyCallSites(Tables)) {
    errs() << Path << ": the ISAs' call sites disagree:\n" << toString(std::move(E));
    return 1;
  }
  outs() << Path << ": every shared symbol has one address and every call site ("
         << Sites / Images.size() << " per ISA) matches on";
  for (const IsaInfo &Info : AllIsas)
    outs() << " " << Info.Name;
  outs() << "\n";
  return 0;
}

static const char *locationName(uint8_t Location) {
  switch (Location) {
  case POPCORN_IN_REGISTER: return "reg";
  case POPCORN_AT_ADDRESS: return "addr";
  case POPCORN_IN_MEMORY: return "mem";
  default: return "const";
  }
}

static int printCallSites(StringRef Path, StringRef IsaName, StringRef Function) {
  std::unique_ptr<MemoryBuffer> File = readFile(Path);
  std::vector<std::unique_ptr<MemoryBuffer>> Owned = images(*File);
  bool FoundFunction = false;
  for (size_t I = 0; I < AllIsas.size(); ++I) {
    if (!IsaName.empty() && parseIsa(IsaName) != AllIsas[I].Id)
      continue;
    Expected<CallSiteTable> Table = readMetadataCallSites(Owned[I]->getMemBufferRef());
    if (!Table)
      fail(toString(Table.takeError()));
    outs() << AllIsas[I].Name << ": " << Table->Sites.size() << " call sites\n";
    for (const CallSite &S : Table->Sites) {
      if (!Function.empty() && S.FunctionName != Function)
        continue;
      FoundFunction = true;
      const popcorn_call_site &C = S.Site;
      std::string Line = C.line ? " line " + std::to_string(C.line) : "";
      outs() << format("  %#llx id %016llx in %s%s%s: CFA = r%u%+d, frame %u%s%s\n",
                       C.return_address, C.id, (C.flags & POPCORN_SITE_LIBC) ? "libc " : "",
                       S.FunctionName.c_str(), Line.c_str(), S.Frame.cfa_register,
                       S.Frame.cfa_offset, S.Frame.frame_size,
                       (C.flags & POPCORN_SITE_COMPLETE) ? "" : " (incomplete)",
                       (C.flags & POPCORN_SITE_RETURNS_TWICE) ? " (setjmp)" : "");
      if (!S.Saved.empty()) {
        outs() << "    saved:";
        for (const popcorn_saved_register &R : S.Saved)
          outs() << format(" r%u@CFA%+d", R.dwarf_register, R.cfa_offset);
        outs() << "\n";
      }
      for (const popcorn_value &V : S.Values) {
        outs() << format("    %-6s %-5s size %2u", V.kind == POPCORN_ALLOCA    ? "alloca"
                                                   : V.kind == POPCORN_POINTER ? "ptr"
                                                                               : "value",
                         locationName(V.location), V.size);
        if (V.location == POPCORN_CONSTANT)
          outs() << format(" = %d", V.offset);
        else
          outs() << format(" r%u", V.dwarf_register);
        if (V.location == POPCORN_AT_ADDRESS || V.location == POPCORN_IN_MEMORY)
          outs() << format("%+d", V.offset);
        if (V.kind == POPCORN_ALLOCA)
          outs() << format(" (%u bytes)", V.alloca_size);
        outs() << "\n";
      }
    }
  }
  if (!Function.empty() && !FoundFunction)
    fail(Path + " has no call site in a function named '" + Function + "'");
  return 0;
}

static int summarizeTrace(StringRef Path, StringRef SvgPath) {
  Expected<Timeline> T = readTimeline(Path);
  if (!T)
    fail(toString(T.takeError()));
  if (SvgPath.empty()) {
    printTimelineSummary(*T, Path, outs());
    return 0;
  }
  std::string Svg;
  raw_string_ostream OS(Svg);
  writeTimelineSvg(*T, Path, OS);
  writeFile(SvgPath, Svg, false);
  return 0;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  if (Argc < 2)
    usage();
  StringRef Command(Argv[1]);
  if (Command == "--help" || Command == "-h") {
    outs() << Usage;
    return 0;
  }
  if (Command == "isas" && Argc == 3)
    return listIsas(Argv[2]);
  if (Command == "extract" && Argc == 6 && StringRef(Argv[2]) == "--isa")
    return extract(Argv[3], Argv[4], Argv[5]);
  if (Command == "layout" && Argc == 3)
    return printLayout(Argv[2]);
  if (Command == "verify" && Argc == 3)
    return verify(Argv[2]);
  if (Command == "trace" && Argc == 3)
    return summarizeTrace(Argv[2], "");
  if (Command == "trace" && Argc == 5 && StringRef(Argv[2]) == "--svg")
    return summarizeTrace(Argv[4], Argv[3]);
  if (Command == "callsites" && Argc >= 3) {
    StringRef IsaName, Function;
    for (int I = 3; I + 1 < Argc; I += 2) {
      if (StringRef(Argv[I]) == "--isa")
        IsaName = Argv[I + 1];
      else if (StringRef(Argv[I]) == "--function")
        Function = Argv[I + 1];
      else
        usage();
    }
    if (Argc % 2 == 0 || (!IsaName.empty() && !parseIsa(IsaName)))
      usage();
    return printCallSites(Argv[2], IsaName, Function);
  }
  usage();
}
