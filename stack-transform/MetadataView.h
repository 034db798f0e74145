//===- MetadataView.h - Reading the migration metadata in memory -*- C++ -*-===//
//
// Lookups in one ISA's tables of popcorn/Metadata.h, prebuilt and sorted by
// popcorn-ld: binary searches, nothing parsed or sorted at run time.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_STACKTRANSFORM_METADATAVIEW_H
#define POPCORN_STACKTRANSFORM_METADATAVIEW_H

#include <popcorn/Metadata.h>

namespace popcorn {

class IsaTables {
public:
  /// The tables of the ISA with ELF machine Machine; valid() is false if
  /// the blob is not popcorn metadata of this version or lacks that ISA.
  IsaTables(const popcorn_metadata *Blob, uint16_t Machine);

  bool valid() const { return Isa != nullptr; }
  uint16_t machine() const { return Isa->elf_machine; }

  /// The call site whose return address is Ra, or null.
  const popcorn_call_site *siteAt(uint64_t Ra) const;
  /// Some call in the code [Start, End) has a record.
  bool recordsCallsIn(uint64_t Start, uint64_t End) const;
  /// Where the recorded calls of the function at Start end: each returns
  /// into [Start, End), no other function's does; Start if it has none.
  uint64_t recordedCallsEnd(uint64_t Start) const;
  /// A call site with this ID (any, when the back end duplicated it), or null.
  const popcorn_call_site *siteWithId(uint64_t Id) const;
  /// The setjmp sites (POPCORN_SITE_RETURNS_TWICE) of the function that
  /// contains S: they are next to S, the sites being in address order.
  template <typename Fn> void forEachReturnsTwiceSite(const popcorn_call_site &S, Fn Visit) const {
    const popcorn_call_site *Sites = at<popcorn_call_site>(Isa->sites);
    const popcorn_call_site *End = Sites + Isa->n_sites, *First = &S;
    uint64_t Function = frame(S).function;
    while (First > Sites && frame(First[-1]).function == Function)
      First--;
    for (const popcorn_call_site *P = First; P < End && frame(*P).function == Function; P++)
      if (P->flags & POPCORN_SITE_RETURNS_TWICE)
        Visit(*P);
  }
  /// Is Pc inside a function at the base of every thread's stack?
  bool isThreadBase(uint64_t Pc) const;

  /// The I-th value S records.
  const popcorn_value &value(const popcorn_call_site &S, uint16_t I) const {
    return at<popcorn_value>(Isa->values)[at<uint16_t>(Isa->value_lists)[S.first_value + I]];
  }
  /// How the frame of S's function is laid out at S.
  const popcorn_frame &frame(const popcorn_call_site &S) const {
    return at<popcorn_frame>(Isa->frames)[S.frame];
  }
  const popcorn_saved_register *saved(const popcorn_call_site &S) const {
    return at<popcorn_saved_register>(Isa->saved) + frame(S).first_saved;
  }

private:
  uint32_t firstSiteFrom(uint64_t Ra) const;
  template <typename T> const T *at(uint32_t Offset) const {
    return reinterpret_cast<const T *>(reinterpret_cast<const char *>(Blob) + Offset);
  }
  const popcorn_metadata *Blob;
  const popcorn_isa_metadata *Isa = nullptr;
};

} // namespace popcorn

#endif
