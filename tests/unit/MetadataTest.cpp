//===- MetadataTest.cpp - The serialized call-site tables -----------------===//
//
// serializeMetadata writes each distinct value description once and the
// sites' lists of values as indices into them; it shares the lists and the
// saved-register lists of call sites (a list already written is not
// repeated; one that extends the last is appended to it) and the frame
// layouts of a function's sites.  Reads every site's lists back out of the
// blob, as the runtime does, and checks they are the sites' own and that
// sharing saved the entries it should.
//
//===----------------------------------------------------------------------===//
#include "CallSiteTable.h"
#include "gtest/gtest.h"
#include <cstring>

using namespace llvm;
using namespace popcorn;

static popcorn_value slot(int32_t Offset) {
  popcorn_value V{};
  V.location = POPCORN_AT_ADDRESS;
  V.kind = POPCORN_ALLOCA;
  V.dwarf_register = 7;
  V.size = V.location_size = 8;
  V.offset = Offset;
  V.alloca_size = 8;
  return V;
}

static CallSite site(uint64_t Id, std::vector<popcorn_value> Values) {
  CallSite S;
  S.Site.id = Id;
  S.Site.return_address = 0x401000 + Id * 16;
  S.Frame.function = 0x401000;
  S.Frame.cfa_register = 7;
  S.Frame.cfa_offset = S.Frame.frame_size = 32;
  S.Values = std::move(Values);
  S.Saved = {{6, 0, -16}, {16, 0, -8}};
  return S;
}

template <typename T> static const T *at(const std::vector<uint8_t> &Blob, uint32_t Offset) {
  return reinterpret_cast<const T *>(Blob.data() + Offset);
}

TEST(Metadata, SitesShareTheirLists) {
  CallSiteTable Table{Isa::X86_64, {}, {}};
  std::vector<popcorn_value> A = {slot(0), slot(8), slot(16)};
  std::vector<popcorn_value> AndMore = {slot(0), slot(8), slot(16), slot(24), slot(32)};
  std::vector<popcorn_value> Other = {slot(40), slot(8)};
  Table.Sites = {site(1, A), site(2, A), site(3, AndMore), site(4, Other), site(5, A),
                 site(6, {})};
  Expected<std::vector<uint8_t>> Serialized = serializeMetadata({Table});
  ASSERT_TRUE(bool(Serialized)) << toString(Serialized.takeError());
  const std::vector<uint8_t> &Blob = *Serialized;

  popcorn_metadata Header;
  memcpy(&Header, Blob.data(), sizeof Header);
  ASSERT_EQ(Header.magic, POPCORN_METADATA_MAGIC);
  ASSERT_EQ(Header.n_isas, 1);
  const auto *Isa = at<popcorn_isa_metadata>(Blob, sizeof Header);
  ASSERT_EQ(Isa->n_sites, Table.Sites.size());
  // Six distinct slots; the lists: A and its extension once (5 entries),
  // Other (2); the saved registers once.
  EXPECT_EQ(Isa->n_values, 6u);
  EXPECT_EQ(Isa->n_value_lists, 7u);
  EXPECT_EQ(Isa->n_saved, 2u);

  // Every site is in one function with one layout: one frame.
  EXPECT_EQ(Isa->n_frames, 1u);

  const auto *Sites = at<popcorn_call_site>(Blob, Isa->sites);
  const auto *Frames = at<popcorn_frame>(Blob, Isa->frames);
  const auto *Values = at<popcorn_value>(Blob, Isa->values);
  const auto *Lists = at<uint16_t>(Blob, Isa->value_lists);
  const auto *Saved = at<popcorn_saved_register>(Blob, Isa->saved);
  for (uint32_t I = 0; I < Isa->n_sites; ++I) {
    const CallSite &Want = Table.Sites[I];
    const popcorn_call_site &Got = Sites[I];
    ASSERT_EQ(Got.id, Want.Site.id);
    ASSERT_EQ(Got.n_values, Want.Values.size());
    ASSERT_LE(Got.first_value + Got.n_values, Isa->n_value_lists);
    for (uint16_t V = 0; V < Got.n_values; ++V) {
      ASSERT_LT(Lists[Got.first_value + V], Isa->n_values);
      EXPECT_EQ(memcmp(&Values[Lists[Got.first_value + V]], &Want.Values[V],
                       sizeof(popcorn_value)),
                0)
          << "value " << V << " of site " << Got.id;
    }
    ASSERT_LT(Got.frame, Isa->n_frames);
    const popcorn_frame &Frame = Frames[Got.frame];
    EXPECT_EQ(Frame.function, Want.Frame.function);
    EXPECT_EQ(Frame.frame_size, Want.Frame.frame_size);
    ASSERT_EQ(Frame.n_saved, Want.Saved.size());
    ASSERT_LE(Frame.first_saved + Frame.n_saved, Isa->n_saved);
    EXPECT_EQ(memcmp(Saved + Frame.first_saved, Want.Saved.data(),
                     Want.Saved.size() * sizeof(popcorn_saved_register)),
              0)
        << "saved registers of site " << Got.id;
  }
}

// A 16-bit index names at most 65,536 distinct values: more is an error
// that says so, not a blob whose indices wrap.
TEST(Metadata, TooManyDistinctValues) {
  CallSiteTable Table{Isa::X86_64, {}, {}};
  for (uint64_t Id = 0; Id < 17; ++Id) {
    std::vector<popcorn_value> Values;
    for (int32_t V = 0; V < 4096; ++V)
      Values.push_back(slot(int32_t(Id * 4096 + V) * 8));
    Table.Sites.push_back(site(Id, std::move(Values)));
  }
  Expected<std::vector<uint8_t>> Serialized = serializeMetadata({Table});
  ASSERT_FALSE(bool(Serialized));
  EXPECT_NE(toString(Serialized.takeError()).find("65,536 distinct values"), std::string::npos);
}
