//===- MetadataTest.cpp - The serialized call-site tables -----------------===//
//
// serializeMetadata writes each distinct value description once and the
// sites' lists of values as indices into them; it shares the lists and the
// saved-register lists of call sites (a list already written is not
// repeated; one that extends the last is appended to it) and the frame
// layouts of a function's sites.  Reads every site's lists back out of the
// blob, as the runtime does, and checks they are the sites' own and that
// sharing saved the entries it should.  Then what popcorn-ld stores:
// dense site IDs, the blob packed (sites shuffled, compressed) and read
// back, and every kind of damage to the section named.
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

// popcorn-ld numbers the IDs by their order among every ISA's: dense,
// and a site keeps its twin on the other ISA.
TEST(Metadata, DenseIdsKeepTwins) {
  CallSiteTable X86{Isa::X86_64, {}, {}}, Arm{Isa::AArch64, {}, {}};
  X86.Sites = {site(0x9e3779b97f4a7c15, {}), site(0x1234, {}), site(0xfedcba9876543210, {})};
  Arm.Sites = {site(0xfedcba9876543210, {}), site(0x9e3779b97f4a7c15, {}), site(0x1234, {}),
               site(0x1234, {})}; // a duplicated block: one ID twice
  std::vector<CallSiteTable> Tables = {X86, Arm};
  renumberSiteIds(Tables);
  std::vector<uint64_t> Got;
  for (const CallSiteTable &T : Tables)
    for (const CallSite &S : T.Sites)
      Got.push_back(S.Site.id);
  EXPECT_EQ(Got, (std::vector<uint64_t>{1, 0, 2, 2, 1, 0, 0}));
}

static std::vector<uint8_t> twoIsaBlob() {
  CallSiteTable X86{Isa::X86_64, {}, {}}, Arm{Isa::AArch64, {}, {}};
  for (uint64_t Id = 0; Id < 300; ++Id) {
    X86.Sites.push_back(site(Id, {slot(int32_t(Id % 7) * 8), slot(16)}));
    Arm.Sites.push_back(site(Id, {slot(int32_t(Id % 5) * 8)}));
    Arm.Sites.back().Site.return_address += 0x100000;
  }
  Expected<std::vector<uint8_t>> Blob = serializeMetadata({X86, Arm});
  EXPECT_TRUE(bool(Blob)) << toString(Blob.takeError());
  return Blob ? *Blob : std::vector<uint8_t>{};
}

// The section holds a header and the blob, its sites shuffled, compressed;
// reading it gives the blob back byte for byte.
TEST(Metadata, PackedBlobComesBack) {
  std::vector<uint8_t> Blob = twoIsaBlob();
  ASSERT_FALSE(Blob.empty());
  Expected<std::vector<uint8_t>> Packed = packMetadata(Blob);
  ASSERT_TRUE(bool(Packed)) << toString(Packed.takeError());
  popcorn_packed_metadata Header;
  ASSERT_GE(Packed->size(), sizeof Header);
  memcpy(&Header, Packed->data(), sizeof Header);
  EXPECT_EQ(memcmp(Header.magic, POPCORN_PACKED_METADATA_MAGIC, 8), 0);
  EXPECT_EQ(Header.inflated_size, Blob.size());
  EXPECT_EQ(Header.compressed_size, Packed->size() - sizeof Header);
  EXPECT_LT(Packed->size(), Blob.size() / 4);

  // Zeros after the stream: the section's room beyond it.
  std::string Section(Packed->begin(), Packed->end());
  Section.append(100, '\0');
  Expected<std::vector<uint8_t>> Back = unpackMetadata(Section, "prog");
  ASSERT_TRUE(bool(Back)) << toString(Back.takeError());
  EXPECT_EQ(*Back, Blob);

  // The shuffle itself: byte B of site I is at B * n_sites + I.
  std::vector<uint8_t> Shuffled(Blob.size());
  ASSERT_TRUE(popcorn_shuffle_sites(Shuffled.data(), Blob.data(), Blob.size(), 1));
  const auto *Isa = at<popcorn_isa_metadata>(Blob, sizeof(popcorn_metadata));
  const uint8_t *Site7 = Blob.data() + Isa->sites + 7 * sizeof(popcorn_call_site);
  for (unsigned B = 0; B < sizeof(popcorn_call_site); ++B)
    ASSERT_EQ(Shuffled[Isa->sites + B * Isa->n_sites + 7], Site7[B]) << "byte " << B;
}

// Every kind of damage is named, never read into a wrong blob.
TEST(Metadata, DamagedPackedBlobIsNamed) {
  std::vector<uint8_t> Blob = twoIsaBlob();
  Expected<std::vector<uint8_t>> Packed = packMetadata(Blob);
  ASSERT_TRUE(bool(Packed)) << toString(Packed.takeError());
  auto Expect = [&](const char *Says, auto Damage) {
    std::string Section(Packed->begin(), Packed->end());
    Damage(Section);
    Expected<std::vector<uint8_t>> Back = unpackMetadata(Section, "prog");
    ASSERT_FALSE(bool(Back)) << Says;
    std::string Message = toString(Back.takeError());
    EXPECT_NE(Message.find("prog: the migration metadata in section .popcorn.metadata is damaged: "),
              std::string::npos)
        << Message;
    EXPECT_NE(Message.find(Says), std::string::npos) << Message;
  };
  Expect("shorter than its header", [](std::string &S) { S.resize(10); });
  Expect("does not start with popmeta1", [](std::string &S) { S[0] = 'X'; });
  Expect("the section has room for", [](std::string &S) { S.resize(S.size() - 1); });
  Expect("does not inflate", [](std::string &S) { S[S.size() / 2] ^= 0x10; });
  Expect("inflates to", [](std::string &S) { S[8]++; }); // inflated_size
  // A blob that inflates well but whose sites lie past its end.
  std::vector<uint8_t> Bad = Blob;
  auto *Isa = reinterpret_cast<popcorn_isa_metadata *>(Bad.data() + sizeof(popcorn_metadata));
  Isa[1].n_sites = 1000000;
  std::vector<uint8_t> Out(Bad.size());
  EXPECT_FALSE(popcorn_shuffle_sites(Out.data(), Bad.data(), Bad.size(), 0));
  EXPECT_FALSE(popcorn_shuffle_sites(Out.data(), Bad.data(), Bad.size(), 1));
}
