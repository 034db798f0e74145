//===- popcorn-ld.cpp - Link a multi-ISA executable -----------------------===//
//
//   popcorn-ld -o prog [-v] [-s] [--keep-temps] [-LDIR] [--lld-arg=ARG] INPUT... [-lNAME]
//
// The pipeline (docs/architecture.md):
//   1. separate the inputs per ISA (SplitInputs.h);
//   2. link every ISA statically against its musl, runtime and compiler
//      builtins with lld (as a library, in forked children), keeping lld's
//      map of the input sections;
//   3. compute one layout from the maps (Layout.h) and link every ISA again
//      with a linker script that follows it: the other ISAs first, then the
//      host ISA, whose link takes their executables in as loaded, read-only
//      sections (MultiIsaFile.h: strip keeps them), less their metadata,
//      which is the same bytes as the host's and stored once (SharedBytes.h);
//   4. check that every shared symbol has one address (VerifyLayout.h) and
//      that every call site has its equivalent on every ISA (CallSiteTable.h);
//   5. write the migration metadata, compressed (popcorn/Metadata.h), into
//      the host's executable and remove the stack maps it was made from
//      (nothing reads them at run time).  The layout reserved the first
//      link's compressed metadata and a margin; if the final metadata
//      does not fit, steps 3 and 4 run again with room for it.
//
//===----------------------------------------------------------------------===//
#include "CallSiteTable.h"
#include "Files.h"
#include "Layout.h"
#include "LinkMap.h"
#include "SplitInputs.h"
#include "VerifyLayout.h"
#include "popcorn/Isa.h"
#include "popcorn/Metadata.h"
#include "popcorn/MultiIsaFile.h"
#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

LLD_HAS_DRIVER(elf)

#define DEBUG_TYPE "popcorn-ld"

using namespace llvm;
using namespace popcorn;

static const char *ToolName = "popcorn-ld";

// The intermediate files of this link; removed on every exit unless the
// user asked to keep them.
static std::string TempDir;
static bool KeepTempDir = false;

static void finish() {
  if (TempDir.empty())
    return;
  if (KeepTempDir)
    errs() << "popcorn-ld: kept the intermediate files in " << TempDir << "\n";
  else
    sys::fs::remove_directories(TempDir);
}

[[noreturn]] static void fail(const Twine &Message) {
  WithColor::error(errs(), ToolName) << Message << "\n";
  finish();
  exit(1);
}

namespace {
struct Options {
  std::string Output = "a.out";
  bool Verbose = false;
  bool Strip = false;
  bool KeepTemps = false;
  std::vector<std::string> LibraryDirs;
  std::vector<std::string> LldArgs;
  std::vector<LinkInput> Inputs;
};
} // namespace

static void printHelp() {
  outs() << "usage: popcorn-ld -o OUTPUT [-v] [-s] [--keep-temps] [-LDIR] [--lld-arg=ARG] INPUT... "
            "[-lNAME]\n"
            "Links objects and archives built by popcorn-clang into one executable that holds\n"
            "code for every ISA (popcorn-clang runs it for a link).\n"
            "  -o OUTPUT        the executable (default: a.out)\n"
            "  -v               show each ISA's link\n"
            "  -s               strip symbols\n"
            "  --keep-temps     keep the intermediate files, and say where\n"
            "  -LDIR            also look for -lNAME in DIR\n"
            "  --lld-arg=ARG    pass ARG to every ISA's ld.lld\n";
}

static Options parseOptions(int Argc, char **Argv) {
  Options Opts;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg(Argv[I]);
    if (Arg == "--help" || Arg == "-h") {
      printHelp();
      exit(0);
    }
    if (Arg == "-o" && I + 1 < Argc)
      Opts.Output = Argv[++I];
    else if (Arg == "-v")
      Opts.Verbose = true;
    else if (Arg == "-s")
      Opts.Strip = true;
    else if (Arg == "--keep-temps")
      Opts.KeepTemps = true;
    else if (Arg.consume_front("--lld-arg=")) {
      // Symbols go in the last step only (-s): the metadata finds the
      // thread bases by name, so a link that stripped them (LDFLAGS=-Wl,-s)
      // would give a program that can never move.
      if (Arg == "-s" || Arg == "--strip-all" || Arg == "-strip-all")
        Opts.Strip = true;
      else
        Opts.LldArgs.push_back(Arg.str());
    }
    else if (Arg.consume_front("-L"))
      Opts.LibraryDirs.push_back(Arg.str());
    else if (Arg.consume_front("-l"))
      Opts.Inputs.push_back({Arg.str(), true});
    else if (Arg.starts_with("-"))
      fail("unknown option '" + Arg + "'");
    else
      Opts.Inputs.push_back({Arg.str(), false});
  }
  if (Opts.Inputs.empty())
    fail("no input files");
  return Opts;
}

static std::string sysrootDir(const char *Argv0) {
  static int Anchor;
  SmallString<256> Dir(sys::path::parent_path(sys::fs::getMainExecutable(Argv0, &Anchor)));
  sys::path::append(Dir, "..", "lib", "popcorn");
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return std::string(Dir);
}

namespace {
struct RunningLink {
  pid_t Pid;
  StringRef IsaName;
  std::string Messages; // where lld writes its errors and warnings
};
} // namespace

// Starts lld for one ISA's executable in a child of this process: lld as a
// library, forked, so that the ISAs' links run side by side without
// starting ld.lld (about 20 ms each here, most of it loading libLLVM, which
// this process has done already; a link of a small program takes as long).
// The child ends with lld's status; finishLinks waits for it, and prints
// what lld said.
static RunningLink startLink(const IsaInfo &Info, const std::vector<std::string> &Inputs,
                             const Options &Opts, const std::string &Sysroot,
                             const std::string &Out, const std::vector<std::string> &Extra) {
  std::string Lib = Sysroot + "/" + std::string(Info.Name) + "/lib/";
  // No RELRO: its padding section would be one more per-ISA region.  The
  // unwind tables' index (.eh_frame_hdr, its program header) is how
  // libunwind finds them, to raise a C++ exception.  No crti.o and crtn.o:
  // the _init and _fini they make are empty, and as code of one ISA they
  // sat on a page of their own, a page fault more at every start
  // (bench/startup.sh); musl's own empty ones serve, and constructors go
  // through .init_array.
  std::vector<std::string> Cmd = {"ld.lld", "-m", std::string(Info.LldEmulation),
                                  "-static", "--gc-sections", "--eh-frame-hdr", "-z", "noexecstack",
                                  "-z", "norelro", "-z", "max-page-size=0x10000", "-o", Out, Lib + "crt1.o"};
  Cmd.insert(Cmd.end(), Inputs.begin(), Inputs.end());
  Cmd.insert(Cmd.end(), {"--start-group", Lib + "libpopcorn.a", Lib + "libc.a",
                         Lib + "libpopcorn-builtins.a", "--end-group"});
  Cmd.insert(Cmd.end(), Opts.LldArgs.begin(), Opts.LldArgs.end());
  Cmd.insert(Cmd.end(), Extra.begin(), Extra.end());

  if (Opts.Verbose) {
    for (const std::string &Arg : Cmd)
      errs() << " \"" << Arg << "\"";
    errs() << "\n";
  }
  std::vector<const char *> Args;
  for (const std::string &Arg : Cmd)
    Args.push_back(Arg.c_str());
  outs().flush();
  errs().flush();
  std::string Messages = TempDir + "/" + std::string(Info.Name) + "/lld-messages";
  pid_t Pid = fork();
  if (Pid < 0)
    fail("cannot start the " + Twine(Info.Name) + " link: " + std::strerror(errno));
  if (Pid == 0) {
    std::error_code EC;
    raw_fd_ostream File(Messages, EC);
    lld::Result R =
        lld::lldMain(Args, outs(), EC ? errs() : File, {{lld::Gnu, &lld::elf::link}});
    outs().flush();
    File.flush();
    _exit(R.retCode);
  }
  return {Pid, Info.Name, Messages};
}

// What lld said in a link, with each temporary file named as the input it
// stands for (an undefined symbol is referenced by "main.o", not by a file
// of popcorn-ld's own under /tmp).
static std::string linkMessages(const RunningLink &Link, const SplitInputs &Split) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Link.Messages);
  if (!File)
    return "";
  std::string Text = (*File)->getBuffer().str();
  for (const auto &[Temporary, Given] : Split.Given)
    for (size_t At = Text.find(Temporary); At != std::string::npos;
         At = Text.find(Temporary, At + Given.size()))
      Text.replace(At, Temporary.size(), Given);
  return Text;
}

// Waits for every link, then says what lld said, once when the ISAs'
// links said the same (an undefined symbol is undefined in each), and
// fails naming the links that failed.
static void finishLinks(ArrayRef<RunningLink> Links, const SplitInputs &Split) {
  std::string Said;
  std::vector<std::string> Failed;
  for (const RunningLink &Link : Links) {
    int Status;
    while (waitpid(Link.Pid, &Status, 0) < 0)
      if (errno != EINTR)
        fail("waiting for the " + Link.IsaName + " link: " + std::strerror(errno));
    std::string Text = linkMessages(Link, Split);
    if (Text != Said)
      errs() << Text;
    Said = std::move(Text);
    if (WIFSIGNALED(Status))
      Failed.push_back(
          (Link.IsaName + " (lld ended by signal " + Twine(WTERMSIG(Status)) + ")").str());
    else if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
      Failed.push_back(Link.IsaName.str());
  }
  if (Failed.size() == 1)
    fail("linking the " + Failed[0] + " executable failed");
  if (!Failed.empty())
    fail("linking the " + join(Failed, " and ") + " executables failed");
}

static void writeFile(StringRef Path, StringRef Data, bool Executable = false) {
  if (Error E = writeWholeFile(Path, Data, Executable))
    fail(toString(std::move(E)));
}

static std::unique_ptr<MemoryBuffer> readFile(StringRef Path) {
  Expected<std::unique_ptr<MemoryBuffer>> Buffer = readWholeFile(Path);
  if (!Buffer)
    fail(toString(Buffer.takeError()));
  return std::move(*Buffer);
}

static CallSiteTable readTable(const std::string &Executable) {
  std::unique_ptr<MemoryBuffer> Buffer = readFile(Executable);
  Expected<CallSiteTable> Table = readCallSites(Buffer->getMemBufferRef());
  if (!Table)
    fail(toString(Table.takeError()));
  return std::move(*Table);
}

// A copy of Executable with Metadata written into the section the layout
// reserved for it.
static std::unique_ptr<MemoryBuffer> withMetadata(const MemoryBuffer &Executable,
                                                  ArrayRef<uint8_t> Metadata) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Executable.getMemBufferRef());
  if (!Obj)
    fail(toString(Obj.takeError()));
  Expected<std::optional<ElfSection>> Section = findSection(**Obj, POPCORN_METADATA_SECTION);
  if (!Section)
    fail(toString(Section.takeError()));
  if (*Section) {
    uint64_t Offset = (*Section)->Offset, Size = (*Section)->Contents.size();
    if (Size < Metadata.size())
      fail(Twine(POPCORN_METADATA_SECTION) + " has " + Twine(Size) +
           " bytes, the metadata needs " + Twine(Metadata.size()));
    std::unique_ptr<WritableMemoryBuffer> Copy =
        WritableMemoryBuffer::getNewUninitMemBuffer(Executable.getBufferSize(),
                                                    Executable.getBufferIdentifier());
    memcpy(Copy->getBufferStart(), Executable.getBufferStart(), Executable.getBufferSize());
    memset(Copy->getBufferStart() + Offset, 0, Size);
    memcpy(Copy->getBufferStart() + Offset, Metadata.data(), Metadata.size());
    return Copy;
  }
  fail(Executable.getBufferIdentifier() + " has no " + POPCORN_METADATA_SECTION + " section");
}

// A copy of Executable without its stack maps: the metadata holds what the
// runtime needs from them, and popcorn-inspect reads the metadata.  With
// StripAll (popcorn-clang -s) without its symbols too, which are dropped only
// here: the metadata's thread bases are found by name in both links.
static std::unique_ptr<MemoryBuffer> withoutStackMaps(const MemoryBuffer &Executable,
                                                      bool StripAll) {
  const std::string StackMaps[] = {".llvm_stackmaps"};
  Expected<std::unique_ptr<MemoryBuffer>> Stripped =
      removeSections(Executable.getMemBufferRef(), StackMaps, StripAll);
  if (!Stripped)
    fail(toString(Stripped.takeError()));
  LLVM_DEBUG(dbgs() << "popcorn-ld: " << Executable.getBufferIdentifier() << ": "
                    << Executable.getBufferSize() << " bytes, "
                    << (*Stripped)->getBufferSize() << " without the stack maps\n");
  return std::move(*Stripped);
}

// Writes ISA Info's Executable, as the host's link takes it in, next to it
// and returns its path: the bytes stripped as the host's will be, without
// the metadata, which the host's section holds once written.
static std::string writeImageObject(const IsaInfo &Info, const std::string &Executable,
                                    bool StripAll) {
  std::unique_ptr<MemoryBuffer> Image = withoutStackMaps(*readFile(Executable), StripAll);
  Expected<StoredImage> Stored =
      storeIsaImage({Info.Id, Image->getMemBufferRef()}, {POPCORN_METADATA_SECTION});
  if (!Stored)
    fail(toString(Stored.takeError()));
  Expected<std::unique_ptr<MemoryBuffer>> Object = storedImageObject(*Stored);
  if (!Object)
    fail(toString(Object.takeError()));
  std::string Path = Executable + ".image.o";
  writeFile(Path, (*Object)->getBuffer());
  return Path;
}

// The migration metadata of Tables as section .popcorn.metadata holds it:
// site IDs numbered densely, packed (popcorn/Metadata.h).
static std::vector<uint8_t> packedMetadata(std::vector<CallSiteTable> &Tables) {
  renumberSiteIds(Tables);
  Expected<std::vector<uint8_t>> Blob = serializeMetadata(Tables);
  if (!Blob)
    fail(toString(Blob.takeError()));
  Expected<std::vector<uint8_t>> Packed = packMetadata(*Blob);
  if (!Packed)
    fail(toString(Packed.takeError()));
  return std::move(*Packed);
}

// Room reserved beyond Packed bytes of metadata: the final links move
// code, and the return addresses compress a little differently.
static uint64_t metadataMargin(uint64_t Packed) { return 256 + Packed / 64; }

// The first reservation: the first link's packed metadata and a margin.
// POPCORN_LD_FIRST_METADATA_MARGIN (bytes, may be negative) replaces the
// margin, for a test that makes the reservation too small.
static uint64_t firstReservation(uint64_t Packed) {
  if (const char *Forced = getenv("POPCORN_LD_FIRST_METADATA_MARGIN")) {
    int64_t Margin = strtoll(Forced, nullptr, 10);
    return Margin < 0 && uint64_t(-Margin) >= Packed ? 1 : Packed + Margin;
  }
  return Packed + metadataMargin(Packed);
}

// The final links, with Reserve bytes for the metadata: the other ISAs
// first, then the host's, which takes their executables in.  Checks that
// every shared symbol has one address; returns the executables' bytes.
static std::vector<std::unique_ptr<MemoryBuffer>>
finalLinks(const std::vector<std::vector<MappedSection>> &Maps, uint64_t Reserve,
           const SplitInputs &Split, const Options &Opts, const std::string &Sysroot,
           std::vector<std::string> &Executables) {
  std::vector<IsaLayout> Layouts = computeLayout(Maps, Reserve);
  std::vector<std::string> Scripts;
  for (size_t I = 0; I < AllIsas.size(); ++I) {
    std::string Base = TempDir + "/" + std::string(AllIsas[I].Name) + "/";
    Scripts.push_back(Base + "layout.ld");
    writeFile(Scripts.back(), writeLinkerScript(Layouts[I]));
    Executables[I] = Base + "prog.aligned";
  }
  std::vector<RunningLink> Links;
  for (size_t I = 1; I < AllIsas.size(); ++I)
    Links.push_back(startLink(AllIsas[I], Split.PerIsa[I], Opts, Sysroot, Executables[I],
                              {"-T", Scripts[I]}));
  finishLinks(Links, Split);
  std::vector<std::string> HostExtra = {"-T", Scripts[0]};
  for (size_t I = 1; I < AllIsas.size(); ++I)
    HostExtra.push_back(writeImageObject(AllIsas[I], Executables[I], Opts.Strip));
  finishLinks(startLink(HostIsa, Split.PerIsa[0], Opts, Sysroot, Executables[0], HostExtra),
              Split);

  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  for (const std::string &Path : Executables)
    Buffers.push_back(readFile(Path));
  std::vector<MemoryBufferRef> Refs;
  for (const std::unique_ptr<MemoryBuffer> &Buffer : Buffers)
    Refs.push_back(Buffer->getMemBufferRef());
  if (Error E = verifyLayout(Refs))
    fail("the ISAs' layouts disagree:\n" + toString(std::move(E)));
  return Buffers;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  Options Opts = parseOptions(Argc, Argv);
  std::string Sysroot = sysrootDir(Argv[0]);

  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("popcorn-ld", Dir))
    fail("cannot create a temporary directory: " + EC.message());
  TempDir = std::string(Dir);
  KeepTempDir = Opts.KeepTemps;

  Expected<SplitInputs> Split = splitInputs(Opts.Inputs, Opts.LibraryDirs, Sysroot, TempDir);
  if (!Split)
    fail(toString(Split.takeError()));

  // The first link keeps the stack maps, as the second will, so both links
  // keep the same sections and the first tells the metadata's size.  In
  // both they are not allocated (INFO): the layout has no room for them.
  // Its metadata and private range do not exist yet (the runtime refers
  // to them).
  std::string KeepStackMaps = TempDir + "/keep-stackmaps.ld";
  writeFile(KeepStackMaps, "SECTIONS { .llvm_stackmaps (INFO) : { KEEP(*(.llvm_stackmaps)) } }\n"
                           "INSERT AFTER .rodata;\n"
                           "__popcorn_metadata = 0;\n"
                           "__popcorn_metadata_end = 0;\n"
                           "__popcorn_private_start = 0;\n"
                           "__popcorn_private_end = 0;\n");
  std::vector<std::string> Executables;
  std::vector<RunningLink> Links;
  for (size_t I = 0; I < AllIsas.size(); ++I) {
    std::string Base = TempDir + "/" + std::string(AllIsas[I].Name) + "/";
    Executables.push_back(Base + "prog");
    Links.push_back(startLink(AllIsas[I], Split->PerIsa[I], Opts, Sysroot, Executables.back(),
                              {"-Map", Base + "first.map", "-T", KeepStackMaps}));
  }
  finishLinks(Links, *Split);
  std::vector<std::vector<MappedSection>> Maps;
  std::vector<CallSiteTable> FirstTables;
  for (size_t I = 0; I < AllIsas.size(); ++I) {
    std::string Base = TempDir + "/" + std::string(AllIsas[I].Name) + "/";
    FirstTables.push_back(readTable(Executables[I]));
    std::unique_ptr<MemoryBuffer> MapText = readFile(Base + "first.map");
    Expected<std::vector<MappedSection>> Map =
        parseLinkMap(MapText->getBuffer(), MapText->getBufferIdentifier());
    if (!Map)
      fail(toString(Map.takeError()));
    Maps.push_back(std::move(*Map));
  }

  // The section's size is fixed before the final links, and the metadata
  // is final only after them: its return addresses change, and with them
  // how well it compresses.  Reserve the first link's packed metadata and
  // a margin; when the final one does not fit (rare), lay out and link
  // again with room for it.
  uint64_t Reserve = firstReservation(packedMetadata(FirstTables).size());
  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  std::vector<uint8_t> Metadata;
  for (int Round = 1;; ++Round) {
    Buffers = finalLinks(Maps, Reserve, *Split, Opts, Sysroot, Executables);
    std::vector<CallSiteTable> Tables;
    for (const std::string &Path : Executables)
      Tables.push_back(readTable(Path));
    if (Error E = verifyCallSites(Tables))
      fail("the ISAs' call sites disagree:\n" + toString(std::move(E)));
    Metadata = packedMetadata(Tables);
    if (Metadata.size() <= Reserve)
      break;
    if (Round == 4)
      fail("the migration metadata (" + Twine(Metadata.size()) + " bytes) outgrew the " +
           Twine(Reserve) + " bytes reserved for it in " + Twine(Round) + " layouts");
    uint64_t Needed = Metadata.size() + metadataMargin(Metadata.size());
    if (Opts.Verbose || getenv("POPCORN_LD_FIRST_METADATA_MARGIN"))
      errs() << "popcorn-ld: the metadata needs " << Metadata.size() << " bytes, " << Reserve
             << " were reserved: linking again with " << Needed << "\n";
    Reserve = Needed;
  }
  std::unique_ptr<MemoryBuffer> MultiIsa =
      withoutStackMaps(*withMetadata(*Buffers[0], Metadata), Opts.Strip);
  writeFile(Opts.Output, MultiIsa->getBuffer(), /*Executable=*/true);
  finish();
  return 0;
}
