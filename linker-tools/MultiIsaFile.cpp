//===- MultiIsaFile.cpp - Embed and find per-ISA images in ELF files ------===//
//
// Uses LLVM's objcopy library to add and remove sections, so the host file
// stays a well-formed ELF file that every host tool understands.
//
//===----------------------------------------------------------------------===//
#include "popcorn/MultiIsaFile.h"
#include "popcorn/SharedBytes.h"
#include "popcorn/StoredImage.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ELF/ELFObjcopy.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Support/Compression.h"
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

Expected<std::optional<ElfSection>> findSection(const ObjectFile &Obj, StringRef Name) {
  auto Fail = [&Obj](const Twine &What) {
    return createStringError(inconvertibleErrorCode(), Obj.getFileName() + ": " + What);
  };
  for (const SectionRef &Section : Obj.sections()) {
    Expected<StringRef> SectionName = Section.getName();
    if (!SectionName)
      return Fail("bad section name: " + toString(SectionName.takeError()));
    if (*SectionName != Name)
      continue;
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents)
      return Fail("section " + Name + " is out of the file's bounds: " +
                  toString(Contents.takeError()));
    return ElfSection{ELFSectionRef(Section).getOffset(), *Contents};
  }
  return std::nullopt;
}

// The record of section Name of Image, for leaving its bytes to the host;
// std::nullopt if Image has no such section or it is empty.
static Expected<std::optional<popcorn_shared_bytes>>
sharedRecord(MemoryBufferRef File, const ObjectFile &Image, const std::string &Name) {
  Expected<std::optional<ElfSection>> Section = findSection(Image, Name);
  if (!Section)
    return Section.takeError();
  if (!*Section || (*Section)->Contents.empty())
    return std::nullopt;
  if (Name.size() >= sizeof(popcorn_shared_bytes::host_section))
    return formatError(File, "section name " + Name + " is too long to share");
  popcorn_shared_bytes Record = {(*Section)->Offset, (*Section)->Contents.size(), {}};
  memcpy(Record.host_section, Name.data(), Name.size());
  return Record;
}

// Bytes without the ranges that Records, sorted by image_offset, name.
static std::string withoutRecords(StringRef Bytes, ArrayRef<popcorn_shared_bytes> Records) {
  std::string Stored;
  uint64_t Next = 0;
  for (const popcorn_shared_bytes &Record : Records) {
    Stored += Bytes.slice(Next, Record.image_offset);
    Next = Record.image_offset + Record.size;
  }
  return Stored + Bytes.substr(Next).str();
}

static void sortByOffset(std::vector<popcorn_shared_bytes> &Records) {
  llvm::sort(Records, [](const popcorn_shared_bytes &A, const popcorn_shared_bytes &B) {
    return A.image_offset < B.image_offset;
  });
}

// Image without the sections in Shared that it has exactly as Host has them,
// and in Records where they were.
static Expected<std::string> withoutSharedBytes(const ObjectFile &Host, const IsaImage &Image,
                                                ArrayRef<std::string> Shared,
                                                std::vector<popcorn_shared_bytes> &Records) {
  std::unique_ptr<MemoryBuffer> Copy;
  Expected<std::unique_ptr<ObjectFile>> Obj = openObject(Image.Data, Copy);
  if (!Obj)
    return formatError(Image.Data, "not an object file: " + toString(Obj.takeError()));
  for (const std::string &Name : Shared) {
    Expected<std::optional<popcorn_shared_bytes>> Record = sharedRecord(Image.Data, **Obj, Name);
    if (!Record)
      return Record.takeError();
    Expected<std::optional<ElfSection>> Theirs = findSection(Host, Name);
    if (!Theirs)
      return Theirs.takeError();
    if (!*Record || !*Theirs)
      continue;
    if (Image.Data.getBuffer().substr((*Record)->image_offset, (*Record)->size) !=
        (*Theirs)->Contents)
      return formatError(Image.Data, "section " + Name + " differs from the host's");
    Records.push_back(**Record);
  }
  sortByOffset(Records);
  return withoutRecords(Image.Data.getBuffer(), Records);
}

// popcorn/StoredImage.h: the header, then the zlib stream, at zlib's best
// compression (an image is written once and read at each node's start).
static Expected<std::string> compressedImage(MemoryBufferRef Image, StringRef Stored) {
  if (!compression::zlib::isAvailable())
    return formatError(Image, "cannot compress the image: this LLVM was built without zlib");
  SmallVector<uint8_t, 0> Stream;
  compression::zlib::compress(arrayRefFromStringRef(Stored), Stream,
                              compression::zlib::BestSizeCompression);
  popcorn_stored_image Header;
  memcpy(Header.magic, POPCORN_STORED_IMAGE_MAGIC, sizeof Header.magic);
  Header.stored_size = Stored.size();
  Header.compressed_size = Stream.size();
  std::string Bytes(reinterpret_cast<const char *>(&Header), sizeof Header);
  return Bytes + toStringRef(Stream).str();
}

Expected<StoredImage> storeIsaImage(const IsaImage &Image, ArrayRef<std::string> LeftToHost) {
  Expected<Isa> ImageIsa = elfIsa(Image.Data);
  if (!ImageIsa)
    return ImageIsa.takeError();
  if (*ImageIsa != Image.Target)
    return formatError(Image.Data, "is not a " + Twine(info(Image.Target).Name) + " file");
  std::unique_ptr<MemoryBuffer> Copy;
  Expected<std::unique_ptr<ObjectFile>> Obj = openObject(Image.Data, Copy);
  if (!Obj)
    return formatError(Image.Data, "not an object file: " + toString(Obj.takeError()));
  StoredImage Stored{Image.Target, {}, {}};
  for (const std::string &Name : LeftToHost) {
    Expected<std::optional<popcorn_shared_bytes>> Record = sharedRecord(Image.Data, **Obj, Name);
    if (!Record)
      return Record.takeError();
    if (*Record)
      Stored.Shared.push_back(**Record);
  }
  sortByOffset(Stored.Shared);
  Expected<std::string> Compressed =
      compressedImage(Image.Data, withoutRecords(Image.Data.getBuffer(), Stored.Shared));
  if (!Compressed)
    return Compressed.takeError();
  Stored.Bytes = std::move(*Compressed);
  return std::move(Stored);
}

Expected<std::unique_ptr<MemoryBuffer>> storedImageObject(const StoredImage &Image) {
  std::string ImageName = imageSectionName(Image.Target);
  std::string SharedName = sharedBytesSectionName(Image.Target);
  objcopy::ConfigManager Config;
  objcopy::CommonConfig &Common = Config.Common;
  Common.InputFormat = objcopy::FileFormat::Binary;
  Common.OutputFormat = objcopy::FileFormat::ELF;
  Common.OutputArch = objcopy::MachineInfo(HostIsa.ElfMachine, /*Is64=*/true, /*IsLittle=*/true);
  // No _binary_* symbols: the runtime finds the sections by name, and a
  // symbol would be one more for the layout check to match across ISAs.
  Common.StripAll = true;
  const objcopy::SectionFlag Loaded = objcopy::SectionFlag::SecAlloc |
                                      objcopy::SectionFlag::SecLoad |
                                      objcopy::SectionFlag::SecReadonly |
                                      objcopy::SectionFlag::SecContents;
  // Raw input becomes section .data, aligned before it is renamed.
  Common.SectionsToRename.try_emplace(".data", objcopy::SectionRename{".data", ImageName, Loaded});
  Common.SetSectionAlignment[".data"] = 16;
  if (!Image.Shared.empty()) {
    StringRef Records(reinterpret_cast<const char *>(Image.Shared.data()),
                      Image.Shared.size() * sizeof(popcorn_shared_bytes));
    Common.AddSection.emplace_back(SharedName, MemoryBuffer::getMemBufferCopy(Records, SharedName));
    Common.SetSectionFlags.try_emplace(SharedName, objcopy::SectionFlagsUpdate{SharedName, Loaded});
  }
  std::unique_ptr<MemoryBuffer> Bytes =
      MemoryBuffer::getMemBuffer(Image.Bytes, ImageName, /*RequiresNullTerminator=*/false);
  SmallVector<char, 0> Out;
  raw_svector_ostream OS(Out);
  if (Error E = objcopy::elf::executeObjcopyOnRawBinary(Common, Config.ELF, *Bytes, OS))
    return createStringError(inconvertibleErrorCode(),
                             "cannot make an object of the " + Twine(info(Image.Target).Name) +
                                 " image: " + toString(std::move(E)));
  return std::make_unique<SmallVectorMemoryBuffer>(std::move(Out), ImageName + ".o",
                                                   /*RequiresNullTerminator=*/false);
}

Expected<std::unique_ptr<MemoryBuffer>> addStoredImage(MemoryBufferRef Home,
                                                       const StoredImage &Image) {
  Expected<Isa> HomeIsa = elfIsa(Home);
  if (!HomeIsa)
    return HomeIsa.takeError();
  if (*HomeIsa == Image.Target)
    return formatError(Home, "is a " + Twine(info(Image.Target).Name) +
                                 " file already: it cannot carry an image of its own ISA");
  std::string ImageName = imageSectionName(Image.Target);
  std::string SharedName = sharedBytesSectionName(Image.Target);
  objcopy::ConfigManager Config;
  objcopy::CommonConfig &Common = Config.Common;
  Common.AddSection.emplace_back(
      ImageName, MemoryBuffer::getMemBufferCopy(Image.Bytes, ImageName));
  if (!Image.Shared.empty()) {
    StringRef Records(reinterpret_cast<const char *>(Image.Shared.data()),
                      Image.Shared.size() * sizeof(popcorn_shared_bytes));
    Common.AddSection.emplace_back(SharedName, MemoryBuffer::getMemBufferCopy(Records, SharedName));
  }
  return runObjcopy(Home, Config);
}

static bool isCompressed(StringRef Contents) {
  return Contents.starts_with(StringRef(POPCORN_STORED_IMAGE_MAGIC, 8));
}

// The stored image in Section, inflated if it was compressed.
static Expected<std::string> inflatedImage(MemoryBufferRef File, const std::string &Section,
                                           StringRef Contents) {
  if (!isCompressed(Contents)) {
    if (!Contents.starts_with(ELF::ElfMagic))
      return formatError(File, "section " + Section +
                                   " holds neither a compressed image nor an ELF file: it is damaged");
    return Contents.str();
  }
  popcorn_stored_image Header;
  if (Contents.size() < sizeof Header)
    return formatError(File, "section " + Section + " is too short for its header");
  memcpy(&Header, Contents.data(), sizeof Header);
  StringRef Stream = Contents.drop_front(sizeof Header);
  if (Header.compressed_size != Stream.size())
    return formatError(File, "section " + Section + " says its image is " +
                                 Twine(Header.compressed_size) + " compressed bytes, but " +
                                 Twine(Stream.size()) + " follow");
  SmallVector<uint8_t, 0> Inflated;
  if (Error E = compression::zlib::decompress(arrayRefFromStringRef(Stream), Inflated,
                                              Header.stored_size))
    return formatError(File, "section " + Section + " holds a damaged compressed image: " +
                                 toString(std::move(E)));
  if (Inflated.size() != Header.stored_size)
    return formatError(File, "section " + Section + " inflates to " + Twine(Inflated.size()) +
                                 " bytes, not the " + Twine(Header.stored_size) + " it says");
  return toStringRef(Inflated).str();
}

Expected<std::unique_ptr<MemoryBuffer>>
embedIsaImages(MemoryBufferRef Host, ArrayRef<IsaImage> Images, ArrayRef<std::string> Shared) {
  Expected<Isa> HostIsaOfFile = elfIsa(Host);
  if (!HostIsaOfFile)
    return HostIsaOfFile.takeError();
  if (*HostIsaOfFile != HostIsa.Id)
    return formatError(Host, "is not a " + Twine(HostIsa.Name) + " file");
  std::unique_ptr<MemoryBuffer> HostCopy;
  Expected<std::unique_ptr<ObjectFile>> HostObj = openObject(Host, HostCopy);
  if (!HostObj)
    return formatError(Host, "not an object file: " + toString(HostObj.takeError()));

  objcopy::ConfigManager Config;
  objcopy::CommonConfig &Common = Config.Common;
  // Exclude: a host link of the object must not copy another ISA's code.
  // Readonly without alloc: in an executable the image is never loaded.
  auto AddSection = [&Common](const std::string &Name, StringRef Bytes, uint64_t Alignment) {
    Common.AddSection.emplace_back(Name, MemoryBuffer::getMemBufferCopy(Bytes, Name));
    Common.SetSectionFlags.try_emplace(
        Name, objcopy::SectionFlagsUpdate{Name, objcopy::SectionFlag::SecReadonly |
                                                    objcopy::SectionFlag::SecExclude});
    Common.SetSectionAlignment[Name] = Alignment;
  };
  std::vector<std::string> Names; // CommonConfig holds StringRefs
  Names.reserve(2 * Images.size());
  for (const IsaImage &Image : Images) {
    Expected<Isa> ImageIsa = elfIsa(Image.Data);
    if (!ImageIsa)
      return ImageIsa.takeError();
    if (*ImageIsa != Image.Target)
      return formatError(Image.Data, "is not a " + Twine(info(Image.Target).Name) + " file");
    std::vector<popcorn_shared_bytes> Records;
    Expected<std::string> Stored = withoutSharedBytes(**HostObj, Image, Shared, Records);
    if (!Stored)
      return Stored.takeError();
    AddSection(Names.emplace_back(imageSectionName(Image.Target)), *Stored, 16);
    if (!Records.empty())
      AddSection(Names.emplace_back(sharedBytesSectionName(Image.Target)),
                 StringRef(reinterpret_cast<const char *>(Records.data()),
                           Records.size() * sizeof(popcorn_shared_bytes)),
                 8);
  }
  return runObjcopy(Host, Config);
}

// The image Stored put together again with the bytes it left to the host
// (popcorn/SharedBytes.h), as Records say.
static Expected<std::string> withSharedBytes(const ObjectFile &Host, MemoryBufferRef File,
                                             StringRef Stored, StringRef Records,
                                             const std::string &RecordsName) {
  if (Records.size() % sizeof(popcorn_shared_bytes))
    return formatError(File, "section " + RecordsName + " is not a whole number of records");
  std::string Image;
  uint64_t Next = 0; // in Stored
  for (size_t I = 0; I < Records.size(); I += sizeof(popcorn_shared_bytes)) {
    popcorn_shared_bytes Record;
    memcpy(&Record, Records.data() + I, sizeof Record);
    // The stored bytes up to this record come first.
    uint64_t Gap = Record.image_offset - Image.size();
    if (Record.image_offset < Image.size() || Gap > Stored.size() - Next)
      return formatError(File, "section " + RecordsName + " places shared bytes outside the image");
    Image += Stored.substr(Next, Gap);
    Next += Gap;
    StringRef Name(Record.host_section, strnlen(Record.host_section, sizeof Record.host_section));
    Expected<std::optional<ElfSection>> Section = findSection(Host, Name);
    if (!Section)
      return Section.takeError();
    if (!*Section || (*Section)->Contents.size() < Record.size)
      return formatError(File, "section " + RecordsName + " names " + Twine(Record.size) +
                                   " bytes of section " + Name + ", which the host does not have");
    Image += (*Section)->Contents.take_front(Record.size);
  }
  return Image + Stored.substr(Next).str();
}

Expected<std::unique_ptr<MemoryBuffer>> findIsaImage(MemoryBufferRef File, Isa I) {
  std::unique_ptr<MemoryBuffer> Copy;
  Expected<std::unique_ptr<ObjectFile>> Obj = openObject(File, Copy);
  if (!Obj)
    return formatError(File, "not an object file: " + toString(Obj.takeError()));
  std::string Wanted = imageSectionName(I), SharedName = sharedBytesSectionName(I);
  Expected<std::optional<ElfSection>> Stored = findSection(**Obj, Wanted);
  if (!Stored)
    return Stored.takeError();
  if (!*Stored)
    return nullptr;
  Expected<std::optional<ElfSection>> Shared = findSection(**Obj, SharedName);
  if (!Shared)
    return Shared.takeError();
  StringRef Contents = (*Stored)->Contents;
  std::unique_ptr<MemoryBuffer> Image;
  if (!*Shared && !isCompressed(Contents)) {
    // Point into File, not into a temporary aligned copy of it.
    Image = MemoryBuffer::getMemBuffer(File.getBuffer().substr((*Stored)->Offset, Contents.size()),
                                       File.getBufferIdentifier(), false);
  } else {
    Expected<std::string> Inflated = inflatedImage(File, Wanted, Contents);
    if (!Inflated)
      return Inflated.takeError();
    Expected<std::string> Whole =
        *Shared ? withSharedBytes(**Obj, File, *Inflated, (*Shared)->Contents, SharedName)
                : std::move(Inflated);
    if (!Whole)
      return Whole.takeError();
    Image = MemoryBuffer::getMemBufferCopy(*Whole, File.getBufferIdentifier());
  }
  Expected<Isa> ImageIsa = elfIsa(Image->getMemBufferRef());
  if (!ImageIsa)
    return formatError(File, "section " + Wanted + " does not hold a valid ELF file: " +
                                 toString(ImageIsa.takeError()));
  if (*ImageIsa != I)
    return formatError(File, "section " + Wanted + " holds an ELF file of another ISA");
  return std::move(Image);
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
  for (const IsaInfo &Info : AllIsas) {
    Names.push_back(imageSectionName(Info.Id));
    Names.push_back(sharedBytesSectionName(Info.Id));
  }
  return removeSections(File, Names);
}

} // namespace popcorn
