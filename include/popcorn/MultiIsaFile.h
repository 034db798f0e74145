//===- popcorn/MultiIsaFile.h - Multi-ISA object and executable files -*- C++ -*-===//
//
// A multi-ISA file is an ordinary ELF file of the host ISA (a relocatable
// object or an executable) that carries the ELF file of every other ISA in a
// section named by imageSectionName().  Host tools keep working on it (ar,
// nm, ld, running it), and the other ISAs' images are one lookup away.
//
// In relocatable objects the image sections are SHF_EXCLUDE, so a plain ELF
// link of the host ISA drops them.  In executables they are allocated,
// read-only and loaded (never touched unless read): strip, objcopy and
// llvm-strip keep what a program loads, and a program moves only with them.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_MULTIISAFILE_H
#define POPCORN_MULTIISAFILE_H

#include "popcorn/Isa.h"
#include "popcorn/SharedBytes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm::object {
class ObjectFile;
}

namespace popcorn {

struct IsaImage {
  Isa Target;
  llvm::MemoryBufferRef Data;
};

/// Returns Host with each image embedded as the section of its ISA.  The
/// sections named in Shared that an image has byte for byte as Host has them
/// are stored once, in Host (popcorn/SharedBytes.h); an image whose section
/// differs from Host's is an error.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
embedIsaImages(llvm::MemoryBufferRef Host, llvm::ArrayRef<IsaImage> Images,
               llvm::ArrayRef<std::string> Shared = {});

/// Name of the section listing the bytes ISA I's image leaves to the host:
/// ".popcorn.shared.aarch64".
inline std::string sharedBytesSectionName(Isa I) {
  return POPCORN_SHARED_SECTION_PREFIX + std::string(info(I).Name);
}

/// An image as an executable stores it: without the sections it leaves to
/// the host (popcorn/SharedBytes.h), and the records of where they were.
struct StoredImage {
  Isa Target;
  std::string Bytes;
  std::vector<popcorn_shared_bytes> Shared;
};

/// Returns Image without its sections named in LeftToHost, which the host
/// executable will hold byte for byte (the metadata, written into the host
/// after its link), compressed (popcorn/StoredImage.h): so the host can be
/// linked with the image inside.
llvm::Expected<StoredImage> storeIsaImage(const IsaImage &Image,
                                          llvm::ArrayRef<std::string> LeftToHost);

/// Returns a relocatable object of the host ISA with Image's bytes in
/// section .popcorn.isa.<isa> and its records in .popcorn.shared.<isa>,
/// both allocated and read-only, for the host's link to place.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> storedImageObject(const StoredImage &Image);

/// Returns Home, an executable of another ISA than Image's, with Image in
/// section .popcorn.isa.<isa> and its records in .popcorn.shared.<isa>: a
/// program that can be home on Home's ISA and start nodes of Image's.
/// The sections are not loaded (a linked file has no segment to put them
/// in), so tools that drop what no segment holds (llvm-strip) drop them.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> addStoredImage(llvm::MemoryBufferRef Home,
                                                                   const StoredImage &Image);

/// Returns the image of ISA I inside File, nullptr if File has none, or an
/// error if File is not a valid ELF file of the host ISA or the image is not
/// a valid ELF file of ISA I.  A compressed image is inflated, and one that
/// left bytes to the host is put together again.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> findIsaImage(llvm::MemoryBufferRef File,
                                                                 Isa I);

/// Returns File without any embedded image: the plain host-ISA file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
stripIsaImages(llvm::MemoryBufferRef File);

/// Returns File without the sections named Names (those it has), and with
/// StripAll without its symbols.  For sections nothing reads once the file
/// is linked, such as the stack maps popcorn-ld has turned into migration
/// metadata.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
removeSections(llvm::MemoryBufferRef File, llvm::ArrayRef<std::string> Names,
               bool StripAll = false);

/// A section of an ELF file: where its bytes start in the file, and the bytes.
struct ElfSection {
  uint64_t Offset;
  llvm::StringRef Contents;
};

/// Returns section Name of Obj, std::nullopt if Obj has none, or an error
/// naming what is wrong with Obj.
llvm::Expected<std::optional<ElfSection>> findSection(const llvm::object::ObjectFile &Obj,
                                                      llvm::StringRef Name);

/// Returns the ISA of an ELF file, or an error naming what is wrong with it.
llvm::Expected<Isa> elfIsa(llvm::MemoryBufferRef File);

} // namespace popcorn

#endif
