//===- popcorn-inspect.cpp - Look inside multi-ISA files ------------------===//
//
//   popcorn-inspect isas FILE                     the ISAs FILE holds
//   popcorn-inspect extract --isa ISA FILE OUT    write ISA's plain ELF file
//
//===----------------------------------------------------------------------===//
#include "popcorn/Isa.h"
#include "popcorn/MultiIsaFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace popcorn;

static const char *ToolName = "popcorn-inspect";

[[noreturn]] static void fail(const Twine &Message) {
  WithColor::error(errs(), ToolName) << Message << "\n";
  exit(1);
}

[[noreturn]] static void usage() {
  errs() << "usage: popcorn-inspect isas FILE\n"
            "       popcorn-inspect extract --isa ISA FILE OUTPUT\n";
  exit(2);
}

static std::unique_ptr<MemoryBuffer> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    fail("cannot read " + Path + ": " + Buffer.getError().message());
  return std::move(*Buffer);
}

static void writeFile(StringRef Path, StringRef Data, bool Executable) {
  std::error_code EC;
  raw_fd_ostream Out(Path, EC);
  if (EC)
    fail("cannot write " + Path + ": " + EC.message());
  Out << Data;
  Out.close();
  if (Out.has_error())
    fail("cannot write " + Path + ": " + Out.error().message());
  if (Executable)
    sys::fs::setPermissions(Path, sys::fs::all_read | sys::fs::all_exe | sys::fs::owner_write);
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
    Expected<std::optional<StringRef>> Image = findIsaImage(File->getMemBufferRef(), Info.Id);
    if (!Image)
      fail(toString(Image.takeError()));
    if (*Image)
      outs() << Info.Name << "\n";
  }
  return 0;
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
    return 0;
  }
  Expected<std::optional<StringRef>> Image = findIsaImage(File->getMemBufferRef(), *Wanted);
  if (!Image)
    fail(toString(Image.takeError()));
  if (!*Image)
    fail(Path + " has no " + IsaName + " image");
  writeFile(OutPath, **Image, Executable);
  return 0;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  if (Argc < 2)
    usage();
  StringRef Command(Argv[1]);
  if (Command == "isas" && Argc == 3)
    return listIsas(Argv[2]);
  if (Command == "extract" && Argc == 6 && StringRef(Argv[2]) == "--isa")
    return extract(Argv[3], Argv[4], Argv[5]);
  usage();
}
