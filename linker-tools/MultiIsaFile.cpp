//===- MultiIsaFile.cpp - Embed and find per-ISA images in ELF files ------===//
//
// Uses LLVM's objcopy library to add and remove sections, so the host file
// stays a well-formed ELF file that every host tool understands.
//
//===----------------------------------------------------------------------===//
#include "popcorn/MultiIsaFile.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::object;

namespace popcorn {

static Error formatError(MemoryBufferRef File, const Twine &What) {
  return createStringError(inconvertibleErrorCode(),
                           File.getBufferIdentifier() + ": " + What);
}

// ELF readers need 8-byte aligned data; an image inside a section or an
// archive member (2-byte aligned) may not be.
static Expected<std::unique_ptr<ObjectFile>> openObject(MemoryBufferRef File,
                                                        std::unique_ptr<MemoryBuffer> &Copy) {
  if (reinterpret_cast<uintptr_t>(File.getBufferStart()) % 8 != 0) {
    Copy = MemoryBuffer::getMemBufferCopy(File.getBuffer(), File.getBufferIdentifier());
    File = Copy->getMemBufferRef();
  }
  return ObjectFile::createObjectFile(File);
}

Expected<Isa> elfIsa(MemoryBufferRef File) {
  std::unique_ptr<MemoryBuffer> Copy;
  Expected<std::unique_ptr<ObjectFile>> Obj = openObject(File, Copy);
  if (!Obj)
    return formatError(File, "not an object file: " + toString(Obj.takeError()));
  auto *Elf = dyn_cast<ELF64LEObjectFile>(Obj->get());
  if (!Elf)
    return formatError(File, "not a 64-bit little-endian ELF file");
  uint16_t Machine = Elf->getELFFile().getHeader().e_machine;
  for (const IsaInfo &Info : AllIsas)
    if (Info.ElfMachine == Machine)
      return Info.Id;
  return formatError(File, "ELF machine " + Twine(Machine) + " is not a supported ISA");
}

static Expected<std::unique_ptr<MemoryBuffer>>
runObjcopy(MemoryBufferRef File, objcopy::ConfigManager &Config) {
  Expected<std::unique_ptr<Binary>> Bin = createBinary(File);
  if (!Bin)
    return formatError(File, toString(Bin.takeError()));
  SmallVector<char, 0> Out;
  raw_svector_ostream OS(Out);
  if (Error E = objcopy::executeObjcopyOnBinary(Config, **Bin, OS))
    return formatError(File, toString(std::move(E)));
  return std::make_unique<SmallVectorMemoryBuffer>(std::move(Out),
                                                   File.getBufferIdentifier(),
                                                   /*RequiresNullTerminator=*/false);
}

Expected<std::unique_ptr<MemoryBuffer>>
embedIsaImages(MemoryBufferRef Host, ArrayRef<IsaImage> Images) {
  Expected<Isa> HostIsaOfFile = elfIsa(Host);
  if (!HostIsaOfFile)
    return HostIsaOfFile.takeError();
  if (*HostIsaOfFile != HostIsa.Id)
    return formatError(Host, "is not a " + Twine(HostIsa.Name) + " file");

  objcopy::ConfigManager Config;
  objcopy::CommonConfig &Common = Config.Common;
  std::vector<std::string> Names; // CommonConfig holds StringRefs
  Names.reserve(Images.size());
  for (const IsaImage &Image : Images) {
    Expected<Isa> ImageIsa = elfIsa(Image.Data);
    if (!ImageIsa)
      return ImageIsa.takeError();
    if (*ImageIsa != Image.Target)
      return formatError(Image.Data, "is not a " + Twine(info(Image.Target).Name) + " file");
    Names.push_back(imageSectionName(Image.Target));
  }
  for (size_t I = 0; I < Images.size(); ++I) {
    Common.AddSection.emplace_back(
        Names[I], MemoryBuffer::getMemBufferCopy(Images[I].Data.getBuffer(), Names[I]));
    // Exclude: a host link of the object must not copy another ISA's code.
    // Readonly without alloc: in an executable the image is never loaded.
    Common.SetSectionFlags.try_emplace(
        Names[I], objcopy::SectionFlagsUpdate{
                      Names[I], objcopy::SectionFlag::SecReadonly |
                                    objcopy::SectionFlag::SecExclude});
    Common.SetSectionAlignment[Names[I]] = 16;
  }
  return runObjcopy(Host, Config);
}

Expected<std::optional<StringRef>> findIsaImage(MemoryBufferRef File, Isa I) {
  std::unique_ptr<MemoryBuffer> Copy;
  Expected<std::unique_ptr<ObjectFile>> Obj = openObject(File, Copy);
  if (!Obj)
    return formatError(File, "not an object file: " + toString(Obj.takeError()));
  std::string Wanted = imageSectionName(I);
  for (const SectionRef &Section : (*Obj)->sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name)
      return formatError(File, "bad section name: " + toString(Name.takeError()));
    if (*Name != Wanted)
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents)
      return formatError(File, "section " + Wanted + " is out of the file's bounds: " +
                                   toString(Contents.takeError()));
    Expected<Isa> ImageIsa = elfIsa(MemoryBufferRef(*Contents, File.getBufferIdentifier()));
    if (!ImageIsa)
      return formatError(File, "section " + Wanted + " does not hold a valid ELF file: " +
                                   toString(ImageIsa.takeError()));
    if (*ImageIsa != I)
      return formatError(File, "section " + Wanted + " holds an ELF file of another ISA");
    // Point into File, not into a temporary aligned copy of it.
    size_t Offset = Contents->data() - (*Obj)->getMemoryBufferRef().getBufferStart();
    return std::optional<StringRef>(File.getBuffer().substr(Offset, Contents->size()));
  }
  return std::optional<StringRef>();
}

Expected<std::unique_ptr<MemoryBuffer>> removeSections(MemoryBufferRef File,
                                                       ArrayRef<std::string> Names,
                                                       bool StripAll) {
  objcopy::ConfigManager Config;
  Config.Common.StripAll = StripAll;
  for (const std::string &Name : Names)
    if (Error E = Config.Common.ToRemove.addMatcher(objcopy::NameOrPattern::create(
            Name, objcopy::MatchStyle::Literal, [](Error E) { return E; })))
      return std::move(E);
  return runObjcopy(File, Config);
}

Expected<std::unique_ptr<MemoryBuffer>> stripIsaImages(MemoryBufferRef File) {
  std::vector<std::string> Names;
  for (const IsaInfo &Info : AllIsas)
    Names.push_back(imageSectionName(Info.Id));
  return removeSections(File, Names);
}

} // namespace popcorn
