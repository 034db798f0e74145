//===- SplitInputs.cpp - One link's inputs, separated per ISA -------------===//
//
// popcorn-clang's objects are host-ISA objects carrying the other ISAs'
// objects; archives of them are host-ISA archives.  The host link uses them
// as they are.  Every other ISA gets extracted objects and rebuilt archives
// (with their own symbol table) in a temporary directory.
//
//===----------------------------------------------------------------------===//
#include "SplitInputs.h"
#include "popcorn/MultiIsaFile.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::object;

namespace popcorn {

static Error inputError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

// Every ISA's copy of input N is <TempDir>/<isa>/in<N>.o (or .a), so the same
// input has the same name in every ISA's link map.
static std::string inputPath(const std::string &TempDir, Isa I, unsigned Index, bool IsArchive) {
  SmallString<256> Path(TempDir);
  sys::path::append(Path, info(I).Name, "in" + Twine(Index) + (IsArchive ? ".a" : ".o"));
  return std::string(Path);
}

static Expected<std::string> writeTemp(const std::string &Path, StringRef Data) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return inputError("cannot write " + Path + ": " + EC.message());
  OS << Data;
  return std::string(Path);
}

static Expected<std::unique_ptr<MemoryBuffer>> requireImage(MemoryBufferRef File, Isa I,
                                                            const Twine &What) {
  Expected<std::unique_ptr<MemoryBuffer>> Image = findIsaImage(File, I);
  if (!Image)
    return Image.takeError();
  if (!*Image)
    return inputError(What + " was not compiled by popcorn-clang: it has no " +
                      info(I).Name + " code");
  return std::move(*Image);
}

static Expected<std::string> extractObject(MemoryBufferRef File, Isa I, const std::string &TempDir,
                                           unsigned Index) {
  Expected<std::unique_ptr<MemoryBuffer>> Image =
      requireImage(File, I, File.getBufferIdentifier());
  if (!Image)
    return Image.takeError();
  return writeTemp(inputPath(TempDir, I, Index, false), (*Image)->getBuffer());
}

static Expected<std::string> extractArchive(MemoryBufferRef File, Isa I,
                                            const std::string &TempDir, unsigned Index) {
  Expected<std::unique_ptr<Archive>> Ar = Archive::create(File);
  if (!Ar)
    return inputError(File.getBufferIdentifier() + ": " + toString(Ar.takeError()));
  std::vector<NewArchiveMember> Members;
  std::vector<std::string> Names;
  Error Err = Error::success();
  for (const Archive::Child &Child : (*Ar)->children(Err)) {
    Expected<StringRef> Name = Child.getName();
    Expected<MemoryBufferRef> Data = Child.getMemoryBufferRef();
    if (!Name || !Data) {
      consumeError(Name.takeError());
      consumeError(Data.takeError());
      return inputError(File.getBufferIdentifier() + ": a member is truncated or corrupt");
    }
    std::string What = (File.getBufferIdentifier() + "(" + *Name + ")").str();
    Expected<std::unique_ptr<MemoryBuffer>> Image = requireImage(*Data, I, What);
    if (!Image)
      return Image.takeError();
    Names.push_back(Name->str());
    NewArchiveMember Member;
    // A copy: the archive writer reads each member's symbols, and an image
    // inside a 2-byte aligned archive member is not aligned for that.
    Member.Buf = MemoryBuffer::getMemBufferCopy((*Image)->getBuffer(), *Name);
    Members.push_back(std::move(Member));
  }
  if (Err)
    return inputError(File.getBufferIdentifier() + ": " + toString(std::move(Err)));
  for (size_t M = 0; M < Members.size(); ++M)
    Members[M].MemberName = Names[M];

  std::string Path = inputPath(TempDir, I, Index, true);
  if (Error E = writeArchive(Path, Members, SymtabWritingMode::NormalSymtab,
                             Archive::K_GNU, /*Deterministic=*/true, /*Thin=*/false))
    return inputError(File.getBufferIdentifier() + ": " + toString(std::move(E)));
  return std::string(Path);
}

static std::optional<std::string> findLibrary(const std::string &Name,
                                              const std::vector<std::string> &Dirs) {
  for (const std::string &Dir : Dirs) {
    SmallString<256> Path(Dir);
    sys::path::append(Path, "lib" + Name + ".a");
    if (sys::fs::exists(Path))
      return std::string(Path);
  }
  return std::nullopt;
}

Expected<SplitInputs> splitInputs(const std::vector<LinkInput> &Inputs,
                                  const std::vector<std::string> &LibraryDirs,
                                  const std::string &SysrootDir, const std::string &TempDir) {
  SplitInputs Split;
  Split.PerIsa.resize(AllIsas.size());
  for (const IsaInfo &Info : AllIsas)
    if (std::error_code EC = sys::fs::create_directories(TempDir + "/" + std::string(Info.Name)))
      return inputError("cannot create " + TempDir + ": " + EC.message());
  unsigned Index = 0;
  for (const LinkInput &In : Inputs) {
    ++Index;
    std::string Path = In.Value;
    if (In.IsLibrary) {
      // A user library (multi-ISA archive) wins; otherwise musl's own
      // per-ISA libraries (-lm, -lpthread, ... are empty in musl).
      if (std::optional<std::string> Found = findLibrary(In.Value, LibraryDirs)) {
        Path = *Found;
      } else {
        bool FoundEverywhere = true;
        for (size_t I = 0; I < AllIsas.size(); ++I) {
          std::string IsaLib = SysrootDir + "/" + std::string(AllIsas[I].Name) + "/lib";
          std::optional<std::string> Own = findLibrary(In.Value, {IsaLib});
          FoundEverywhere &= Own.has_value();
          if (Own)
            Split.PerIsa[I].push_back(*Own);
        }
        if (!FoundEverywhere)
          return inputError("cannot find -l" + In.Value + " (searched for lib" + In.Value +
                            ".a in the -L directories and popcorn's sysroot)");
        continue;
      }
    }

    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return inputError("cannot read " + Path + ": " + Buffer.getError().message());
    MemoryBufferRef File = (*Buffer)->getMemBufferRef();
    bool IsArchive = File.getBuffer().starts_with("!<arch>\n");
    SmallString<256> Original(Path);
    std::string HostLink = inputPath(TempDir, HostIsa.Id, Index, IsArchive);
    if (std::error_code EC = sys::fs::make_absolute(Original))
      return inputError("cannot resolve " + Path + ": " + EC.message());
    if (std::error_code EC = sys::fs::create_link(Original, HostLink))
      return inputError("cannot link " + HostLink + ": " + EC.message());
    Split.PerIsa[0].push_back(HostLink);
    Split.Given.push_back({HostLink, Path});
    for (size_t I = 1; I < AllIsas.size(); ++I) {
      Expected<std::string> Extracted =
          IsArchive ? extractArchive(File, AllIsas[I].Id, TempDir, Index)
                    : extractObject(File, AllIsas[I].Id, TempDir, Index);
      if (!Extracted)
        return Extracted.takeError();
      Split.PerIsa[I].push_back(*Extracted);
      Split.Given.push_back({*Extracted, Path});
    }
  }
  return Split;
}

} // namespace popcorn
