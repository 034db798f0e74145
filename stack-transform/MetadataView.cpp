//===- MetadataView.cpp - Reading the migration metadata in memory --------===//
#include "MetadataView.h"

namespace popcorn {

IsaTables::IsaTables(const popcorn_metadata *Blob, uint16_t Machine) : Blob(Blob) {
  if (!Blob || Blob->magic != POPCORN_METADATA_MAGIC || Blob->version != POPCORN_METADATA_VERSION)
    return;
  const auto *Isas = reinterpret_cast<const popcorn_isa_metadata *>(Blob + 1);
  for (uint16_t I = 0; I < Blob->n_isas; I++)
    if (Isas[I].elf_machine == Machine)
      Isa = &Isas[I];
}

// The first site whose return address is Ra or above.
uint32_t IsaTables::firstSiteFrom(uint64_t Ra) const {
  const popcorn_call_site *Sites = at<popcorn_call_site>(Isa->sites);
  uint32_t Lo = 0, Hi = Isa->n_sites;
  while (Lo < Hi) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (Sites[Mid].return_address < Ra)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo;
}

const popcorn_call_site *IsaTables::siteAt(uint64_t Ra) const {
  const popcorn_call_site *Sites = at<popcorn_call_site>(Isa->sites);
  uint32_t I = firstSiteFrom(Ra);
  return I < Isa->n_sites && Sites[I].return_address == Ra ? &Sites[I] : nullptr;
}

bool IsaTables::recordsCallsIn(uint64_t Start, uint64_t End) const {
  // A call at the range's last byte returns to End.
  uint32_t I = firstSiteFrom(Start + 1);
  return I < Isa->n_sites && at<popcorn_call_site>(Isa->sites)[I].return_address <= End;
}

uint64_t IsaTables::recordedCallsEnd(uint64_t Start) const {
  const popcorn_call_site *Sites = at<popcorn_call_site>(Isa->sites);
  uint64_t End = Start;
  for (uint32_t I = firstSiteFrom(Start + 1);
       I < Isa->n_sites && frame(Sites[I]).function == Start; I++)
    End = Sites[I].return_address + 1;
  return End;
}

const popcorn_call_site *IsaTables::siteWithId(uint64_t Id) const {
  const popcorn_call_site *Sites = at<popcorn_call_site>(Isa->sites);
  const uint32_t *ById = at<uint32_t>(Isa->sites_by_id);
  uint32_t Lo = 0, Hi = Isa->n_sites;
  while (Lo < Hi) {
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (Sites[ById[Mid]].id < Id)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo < Isa->n_sites && Sites[ById[Lo]].id == Id ? &Sites[ById[Lo]] : nullptr;
}

bool IsaTables::isThreadBase(uint64_t Pc) const {
  const popcorn_code_range *Bases = at<popcorn_code_range>(Isa->bases);
  for (uint32_t I = 0; I < Isa->n_bases; I++)
    if (Pc > Bases[I].start && Pc <= Bases[I].end)
      return true;
  return false;
}

} // namespace popcorn
