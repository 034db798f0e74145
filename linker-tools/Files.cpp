//===- Files.cpp - Whole-file reads and writes for the linker tools -------===//
#include "Files.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace popcorn {

Expected<std::unique_ptr<MemoryBuffer>> readWholeFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             "cannot read " + Path + ": " + Buffer.getError().message());
  return std::move(*Buffer);
}

Error writeWholeFile(StringRef Path, StringRef Data, bool Executable) {
  // A new file, as ld and lld write one: the old one may be running (ninja
  // relinks itself while it runs, and a running executable cannot be opened
  // for writing: ETXTBSY); its processes keep the old file.  If it cannot be
  // removed, it is written over.
  if (sys::fs::is_regular_file(Path))
    (void)sys::fs::remove(Path);
  std::error_code EC;
  raw_fd_ostream Out(Path, EC);
  if (!EC) {
    Out << Data;
    Out.close();
    EC = Out.error();
  }
  if (!EC && Executable)
    EC = sys::fs::setPermissions(Path, sys::fs::all_read | sys::fs::all_exe |
                                           sys::fs::owner_write);
  if (EC)
    return createStringError(EC, "cannot write " + Path + ": " + EC.message());
  return Error::success();
}

} // namespace popcorn
