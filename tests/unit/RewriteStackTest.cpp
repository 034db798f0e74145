//===- RewriteStackTest.cpp - The freestanding stack rewrite ---------------===//
//
// Feeds rewriteStack synthetic migration metadata for x86-64 and aarch64 and
// synthetic native stacks built in host memory (the rewrite reads and writes
// plain addresses, so host arrays serve), and checks the destination stack
// region and register set word by word.
//
// The synthetic program has three functions (a thread base, a middle
// function that may recurse, a leaf), described per ISA with the frame
// conventions of its back end: on x86-64 the return address (DWARF 16) is at
// CFA-8 and, with a frame pointer, %rbp at CFA-16 and CFA = %rbp+16; on
// aarch64 x30 and x29 are at CFA-8 and CFA-16 and CFA = x29+16.  Some frames
// are on the stack pointer instead, to cover both CFA rules.
//
// A reference model (layOut) builds the stack of a list of call sites
// holding given logical values on either ISA.  The source is the model's
// stack on ISA A; the expected result is the model's stack on ISA B in the
// destination region.  The model finds a register's home by searching the
// more recent frames for one that saves it, where the rewrite tracks save
// slots incrementally; the simple cases are also checked against addresses
// computed by hand, so a shared mistake in the model would show.
//
//===----------------------------------------------------------------------===//
#include "Rewrite.h"
#include "SetjmpFrames.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstring>
#include <sstream>
#include <vector>

using namespace popcorn;

namespace {

// DWARF register numbers.
constexpr uint16_t X86Rbx = 3, X86Rbp = 6, X86Rsp = 7, X86R12 = 12, X86Ra = 16, X86Xmm1 = 18;
constexpr uint16_t A64X19 = 19, A64X20 = 20, A64Fp = 29, A64Lr = 30, A64Sp = 31, A64V1 = 65;

// What an untouched word of a stack region holds.
constexpr uint64_t Poison = 0xddddddddddddddddull;
constexpr uint64_t SourceThreadPointer = 0x7f0000001000ull;
constexpr uint64_t DestinationThreadPointer = 0x7f0000002000ull;

//===-- The synthetic program ---------------------------------------------===//

// A function's frame at its call sites on one ISA.
struct FunctionLayout {
  uint64_t Start, End;
  uint16_t CfaRegister;
  int32_t CfaOffset;
  uint32_t FrameSize;
  std::vector<popcorn_saved_register> Saves;
};

enum Function { Base, Middle, Leaf };

struct SiteSpec {
  uint64_t Id, ReturnAddress;
  Function In;
  std::vector<popcorn_value> Values;
  uint16_t Flags = POPCORN_SITE_COMPLETE;
};

struct IsaProgram {
  uint16_t Machine;
  FunctionLayout Functions[3];
  std::vector<SiteSpec> Sites;

  const SiteSpec &site(uint64_t Id) const {
    for (const SiteSpec &S : Sites)
      if (S.Id == Id)
        return S;
    ADD_FAILURE() << "no site " << Id << " on " << Machine;
    return Sites[0];
  }
  const FunctionLayout &layout(const SiteSpec &S) const { return Functions[S.In]; }
};

popcorn_value inMemory(uint16_t Reg, int32_t Offset, uint16_t Size, uint16_t SlotSize) {
  popcorn_value V{};
  V.location = POPCORN_IN_MEMORY;
  V.kind = POPCORN_SCALAR;
  V.dwarf_register = Reg;
  V.size = Size;
  V.location_size = SlotSize;
  V.offset = Offset;
  return V;
}

// A stack slot whose contents cross the call (popcorn-ld records these as
// an alloca at an address).
popcorn_value stackSlot(uint16_t Reg, int32_t Offset, uint32_t Bytes) {
  popcorn_value V{};
  V.location = POPCORN_AT_ADDRESS;
  V.kind = POPCORN_ALLOCA;
  V.dwarf_register = Reg;
  V.size = 8;
  V.location_size = 8;
  V.offset = Offset;
  V.alloca_size = Bytes;
  return V;
}

popcorn_value inRegister(uint16_t Reg, uint16_t Size = 8) {
  popcorn_value V{};
  V.location = POPCORN_IN_REGISTER;
  V.kind = POPCORN_SCALAR;
  V.dwarf_register = Reg;
  V.size = Size;
  V.location_size = Size;
  return V;
}

popcorn_value constant(int32_t C, uint16_t Size) {
  popcorn_value V{};
  V.location = POPCORN_CONSTANT;
  V.kind = POPCORN_SCALAR;
  V.size = Size;
  V.location_size = Size;
  V.offset = C;
  return V;
}

// Call-site IDs, the same on both ISAs.
enum : uint64_t {
  BaseCallsMiddle = 10,
  BaseMigrates = 11,  // the migration point called from the base: 1 frame
  BaseCallsAtItsEnd = 12, // a call ending the base: returns to its end address
  MiddleCallsLeaf = 20,
  MiddleRecurses = 21,
  MiddleMigrates = 22,
  MiddleCallsLeafVaList = 23,
  LeafMigrates = 30,
  LeafOnlyOnX86 = 40,
  LeafIncomplete = 60,
  LeafShapesDiffer = 70,
  LeafConstantInASlot = 80, // a constant on x86-64, spilled on aarch64
  LeafVector = 81,          // a 16-byte value in a vector register
  LeafSlotAboveRegion = 82, // aarch64's record names a slot above the stack
};

// x86-64: base and leaf keep a frame pointer, the middle function does not
// (CFA = %rsp + 48), so the base's %rbp crosses the middle frames in the
// register and the leaf saves it.
IsaProgram x86Program() {
  IsaProgram P;
  P.Machine = EmX86_64;
  P.Functions[Base] = {0x401000, 0x401100, X86Rbp, 16, 32, {{X86Ra, 0, -8}, {X86Rbp, 0, -16}}};
  P.Functions[Middle] = {0x401100, 0x401200, X86Rsp, 48, 48, {{X86Ra, 0, -8}, {X86Rbx, 0, -16}}};
  P.Functions[Leaf] = {0x401200, 0x401300, X86Rbp, 16, 48,
                       {{X86Ra, 0, -8}, {X86Rbp, 0, -16}, {X86R12, 0, -24}}};
  // Base: [rbp-8] = CFA-24; the caller's value in %rbx (saved by the middle
  // function); a constant.
  std::vector<popcorn_value> BaseValues = {inMemory(X86Rbp, -8, 8, 8), constant(7, 4),
                                           inRegister(X86Rbx)};
  // Middle: [rsp] = CFA-48, 4 bytes at [rsp+8], a 16-byte slot at
  // [rsp+16] = CFA-32..-16, and %r12 (saved by the leaf).
  std::vector<popcorn_value> MiddleValues = {inMemory(X86Rsp, 0, 8, 8), inMemory(X86Rsp, 8, 4, 4),
                                             stackSlot(X86Rsp, 16, 16), inRegister(X86R12)};
  std::vector<popcorn_value> Recursing(MiddleValues.begin(), MiddleValues.end() - 1);
  // Leaf: [rbp-16] = CFA-32, 4 bytes in a 4-byte slot at [rsp] = CFA-48.
  std::vector<popcorn_value> LeafValues = {inMemory(X86Rbp, -16, 8, 8), inMemory(X86Rsp, 0, 4, 4),
                                           constant(-3, 8)};
  P.Sites = {
      {BaseCallsMiddle, 0x401010, Base, BaseValues},
      {BaseMigrates, 0x401020, Base, BaseValues},
      {BaseCallsAtItsEnd, 0x401100, Base, BaseValues},
      {MiddleCallsLeaf, 0x401110, Middle, MiddleValues},
      {MiddleRecurses, 0x401120, Middle, Recursing},
      {MiddleMigrates, 0x401130, Middle, MiddleValues},
      {MiddleCallsLeafVaList, 0x401140, Middle, MiddleValues,
       POPCORN_SITE_COMPLETE | POPCORN_SITE_VA_LIST},
      {LeafMigrates, 0x401210, Leaf, LeafValues},
      {LeafOnlyOnX86, 0x401220, Leaf, LeafValues},
      {LeafIncomplete, 0x401240, Leaf, LeafValues, 0},
      {LeafShapesDiffer, 0x401250, Leaf, {inMemory(X86Rbp, -16, 8, 8)}},
      {LeafConstantInASlot, 0x401260, Leaf, {constant(-3, 8)}},
      {LeafVector, 0x401270, Leaf, {inRegister(X86Xmm1, 16)}},
      {LeafSlotAboveRegion, 0x401280, Leaf, {inMemory(X86Rbp, -16, 8, 8)}},
  };
  return P;
}

// aarch64: the base has no frame pointer (CFA = sp + 32), the middle
// function and the leaf do (CFA = x29 + 16).  Return addresses differ from
// x86-64's so that a mix-up shows.
IsaProgram aarch64Program() {
  IsaProgram P;
  P.Machine = EmAArch64;
  P.Functions[Base] = {0x801000, 0x801100, A64Sp, 32, 32, {{A64Lr, 0, -8}, {A64Fp, 0, -16}}};
  P.Functions[Middle] = {0x801100, 0x801200, A64Fp, 16, 64,
                         {{A64Lr, 0, -8}, {A64Fp, 0, -16}, {A64X19, 0, -32}}};
  P.Functions[Leaf] = {0x801200, 0x801300, A64Fp, 16, 48,
                       {{A64Lr, 0, -8}, {A64Fp, 0, -16}, {A64X20, 0, -24}}};
  // Base: [sp+8] = CFA-24, and x19 (saved by the middle function).
  std::vector<popcorn_value> BaseValues = {inMemory(A64Sp, 8, 8, 8), constant(7, 4),
                                           inRegister(A64X19)};
  // Middle: [sp] = CFA-64, 4 bytes at [sp+8], a 16-byte slot at
  // [x29-32] = CFA-48..-32, and x20 (saved by the leaf).
  std::vector<popcorn_value> MiddleValues = {inMemory(A64Sp, 0, 8, 8), inMemory(A64Sp, 8, 4, 4),
                                             stackSlot(A64Fp, -32, 16), inRegister(A64X20)};
  std::vector<popcorn_value> Recursing(MiddleValues.begin(), MiddleValues.end() - 1);
  // Leaf: [sp+8] = CFA-40, the 4-byte value in an 8-byte slot at
  // [x29-32] = CFA-48 (x86-64's slot is 4 bytes: the upper half must be 0).
  std::vector<popcorn_value> LeafValues = {inMemory(A64Sp, 8, 8, 8), inMemory(A64Fp, -32, 4, 8),
                                           constant(-3, 8)};
  P.Sites = {
      {BaseCallsMiddle, 0x801014, Base, BaseValues},
      {BaseMigrates, 0x801024, Base, BaseValues},
      {BaseCallsAtItsEnd, 0x801100, Base, BaseValues},
      {MiddleCallsLeaf, 0x801114, Middle, MiddleValues},
      {MiddleRecurses, 0x801124, Middle, Recursing},
      {MiddleMigrates, 0x801134, Middle, MiddleValues},
      {MiddleCallsLeafVaList, 0x801144, Middle, MiddleValues,
       POPCORN_SITE_COMPLETE | POPCORN_SITE_VA_LIST},
      {LeafMigrates, 0x801214, Leaf, LeafValues},
      {LeafIncomplete, 0x801244, Leaf, LeafValues, 0},
      {LeafShapesDiffer, 0x801254, Leaf, {inMemory(A64Sp, 8, 4, 8)}},
      {LeafConstantInASlot, 0x801264, Leaf, {inMemory(A64Sp, 8, 8, 8)}},
      {LeafVector, 0x801274, Leaf, {inRegister(A64V1, 16)}},
      // The leaf's sp is 144 bytes below the region's top.
      {LeafSlotAboveRegion, 0x801284, Leaf, {inMemory(A64Sp, 144, 8, 8)}},
  };
  return P;
}

const IsaProgram &program(uint16_t Machine) {
  static const IsaProgram X86 = x86Program(), A64 = aarch64Program();
  return Machine == EmAArch64 ? A64 : X86;
}

//===-- The metadata blob ---------------------------------------------------===//

// Metadata.h's layout: header, one entry per ISA, then each ISA's arrays
// (sites by return address, indices by ID, values, saves, thread bases).
std::vector<uint64_t> buildMetadata(const std::vector<const IsaProgram *> &Isas) {
  std::vector<uint8_t> B(sizeof(popcorn_metadata) + Isas.size() * sizeof(popcorn_isa_metadata));
  auto Append = [&B](const void *Data, size_t Bytes) {
    B.resize((B.size() + 7) & ~size_t(7));
    uint32_t Offset = uint32_t(B.size());
    B.insert(B.end(), static_cast<const uint8_t *>(Data), static_cast<const uint8_t *>(Data) + Bytes);
    return Offset;
  };
  std::vector<popcorn_isa_metadata> Entries;
  for (const IsaProgram *P : Isas) {
    std::vector<SiteSpec> Specs = P->Sites;
    std::sort(Specs.begin(), Specs.end(),
              [](const SiteSpec &A, const SiteSpec &B) { return A.ReturnAddress < B.ReturnAddress; });
    std::vector<popcorn_call_site> Sites;
    std::vector<popcorn_frame> Frames;
    std::vector<popcorn_value> Values;
    std::vector<uint16_t> Lists;
    std::vector<popcorn_saved_register> Saved;
    for (const SiteSpec &Spec : Specs) {
      const FunctionLayout &F = P->layout(Spec);
      popcorn_frame Frame{};
      Frame.function = F.Start;
      Frame.first_saved = uint32_t(Saved.size());
      Frame.n_saved = uint16_t(F.Saves.size());
      Frame.cfa_register = F.CfaRegister;
      Frame.cfa_offset = F.CfaOffset;
      Frame.frame_size = F.FrameSize;
      popcorn_call_site S{};
      S.id = Spec.Id;
      S.return_address = Spec.ReturnAddress;
      S.frame = uint32_t(Frames.size());
      S.first_value = uint32_t(Lists.size());
      S.n_values = uint16_t(Spec.Values.size());
      S.flags = Spec.Flags;
      Frames.push_back(Frame);
      Sites.push_back(S);
      for (const popcorn_value &V : Spec.Values) {
        Lists.push_back(uint16_t(Values.size()));
        Values.push_back(V);
      }
      Saved.insert(Saved.end(), F.Saves.begin(), F.Saves.end());
    }
    std::vector<uint32_t> ById(Sites.size());
    for (uint32_t I = 0; I < ById.size(); I++)
      ById[I] = I;
    std::sort(ById.begin(), ById.end(),
              [&](uint32_t A, uint32_t B) { return Sites[A].id < Sites[B].id; });
    popcorn_code_range Bases[] = {{P->Functions[Base].Start, P->Functions[Base].End}};

    popcorn_isa_metadata E{};
    E.elf_machine = P->Machine;
    E.n_sites = uint32_t(Sites.size());
    E.sites = Append(Sites.data(), Sites.size() * sizeof(Sites[0]));
    E.sites_by_id = Append(ById.data(), ById.size() * sizeof(ById[0]));
    E.n_frames = uint32_t(Frames.size());
    E.frames = Append(Frames.data(), Frames.size() * sizeof(Frames[0]));
    E.n_values = uint32_t(Values.size());
    E.values = Append(Values.data(), Values.size() * sizeof(Values[0]));
    E.n_value_lists = uint32_t(Lists.size());
    E.value_lists = Append(Lists.data(), Lists.size() * sizeof(Lists[0]));
    E.n_saved = uint32_t(Saved.size());
    E.saved = Append(Saved.data(), Saved.size() * sizeof(Saved[0]));
    E.n_bases = 1;
    E.bases = Append(Bases, sizeof(Bases));
    Entries.push_back(E);
  }
  popcorn_metadata H{POPCORN_METADATA_MAGIC, POPCORN_METADATA_VERSION, uint16_t(Isas.size()),
                     uint32_t(B.size()), 0};
  std::memcpy(B.data(), &H, sizeof H);
  std::memcpy(B.data() + sizeof H, Entries.data(), Entries.size() * sizeof(Entries[0]));
  std::vector<uint64_t> Blob((B.size() + 7) / 8);
  std::memcpy(Blob.data(), B.data(), B.size());
  return Blob;
}

const popcorn_metadata *metadata(const std::vector<uint64_t> &Blob) {
  return reinterpret_cast<const popcorn_metadata *>(Blob.data());
}

//===-- The reference model -------------------------------------------------===//

// Byte K of the logical value V of frame I (frames counted from the
// innermost, the same on both ISAs).
uint8_t valueByte(size_t Frame, size_t Value, size_t K) {
  uint64_t X = (Frame * 131 + Value * 17 + K / 8 + 1) * 0x9e3779b97f4a7c15ull;
  X ^= X >> 29;
  return uint8_t(X >> (8 * (K % 8)));
}

// Size bytes of a logical value from byte From, zero-extended to 8.
uint64_t valueWord(size_t Frame, size_t Value, unsigned Size = 8, unsigned From = 0) {
  uint64_t W = 0;
  for (unsigned K = 0; K < Size; K++)
    W |= uint64_t(valueByte(Frame, Value, From + K)) << (8 * K);
  return W;
}

// Writes the value into Width bytes, zero-extended from Size.
void writeValue(uint8_t *To, unsigned Width, size_t Frame, size_t Value, unsigned Size) {
  for (unsigned K = 0; K < Width; K++)
    To[K] = K < Size ? valueByte(Frame, Value, K) : 0;
}

struct Layout {
  std::vector<uint64_t> Cfa, Sp;
};

// Lays out the frames of Ids (innermost first) on P's ISA with the base
// frame's CFA at High, as the thread would have them there: every frame's
// values, return address and frame pointer where its record says.  Regs
// gets the innermost frame's registers; nothing else is written.
Layout layOut(const IsaProgram &P, const std::vector<uint64_t> &Ids, uint64_t High,
              RegisterSet &Regs, uint64_t ThreadPointer) {
  const FrameRegisters &FR = frameRegisters(P.Machine);
  size_t N = Ids.size();
  Layout L{std::vector<uint64_t>(N), std::vector<uint64_t>(N)};
  uint64_t Cfa = High;
  for (size_t I = N; I-- > 0;) {
    L.Cfa[I] = Cfa;
    L.Sp[I] = Cfa - P.layout(P.site(Ids[I])).FrameSize;
    Cfa = L.Sp[I];
  }
  std::memset(&Regs, 0, sizeof Regs);
  Regs.Machine = P.Machine;
  Regs.ThreadPointer = ThreadPointer;
  Regs.Sp = L.Sp[0];

  // Where frame I's value of register R is: the slot of the nearest more
  // recent frame that saves R, or the register set.
  auto Home = [&](size_t I, uint16_t R, unsigned &Width) -> uint8_t * {
    for (size_t J = I; J-- > 0;)
      for (const popcorn_saved_register &S : P.layout(P.site(Ids[J])).Saves)
        if (S.dwarf_register == R) {
          Width = 8;
          return reinterpret_cast<uint8_t *>(L.Cfa[J] + int64_t(S.cfa_offset));
        }
    return registerStorage(Regs, P.Machine, R, Width);
  };

  for (size_t I = 0; I < N; I++) {
    const SiteSpec &S = P.site(Ids[I]);
    const FunctionLayout &F = P.layout(S);
    bool HasFp = F.CfaRegister == FR.Fp;
    uint64_t Fp = L.Cfa[I] - int64_t(F.CfaOffset);
    for (size_t V = 0; V < S.Values.size(); V++) {
      const popcorn_value &Val = S.Values[V];
      uint64_t Base = Val.dwarf_register == FR.Sp ? L.Sp[I] : Fp;
      if (Val.location != POPCORN_IN_REGISTER && Val.location != POPCORN_CONSTANT)
        EXPECT_TRUE(Val.dwarf_register == FR.Sp || HasFp) << "test program's mistake";
      uint8_t *At = reinterpret_cast<uint8_t *>(Base + int64_t(Val.offset));
      unsigned Width;
      switch (Val.location) {
      case POPCORN_IN_MEMORY:
        writeValue(At, std::max(Val.size, Val.location_size), I, V, Val.size);
        break;
      case POPCORN_AT_ADDRESS:
        writeValue(At, Val.alloca_size, I, V, Val.alloca_size);
        break;
      case POPCORN_IN_REGISTER:
        At = Home(I, Val.dwarf_register, Width);
        writeValue(At, Width, I, V, Val.size);
        break;
      }
    }
    unsigned Width;
    if (HasFp)
      std::memcpy(Home(I, FR.Fp, Width), &Fp, 8);
    std::memcpy(Home(I, FR.ReturnAddress, Width), &S.ReturnAddress, 8);
  }
  Regs.Pc = P.site(Ids[0]).ReturnAddress;
  return L;
}

//===-- Stack regions and the rewrite --------------------------------------===//

// Host memory posing as a thread's stack: Bytes between Low and High, both
// 16-byte aligned, poisoned.
struct Region {
  std::vector<uint64_t> Words;
  uint64_t Low, High;

  explicit Region(uint64_t Bytes) : Words(Bytes / 8 + 2, Poison) {
    Low = (reinterpret_cast<uint64_t>(Words.data()) + 15) & ~uint64_t(15);
    High = Low + Bytes;
  }
  StackRegion region() const { return {Low, High}; }
  uint64_t &at(uint64_t Address) { return *reinterpret_cast<uint64_t *>(Address); }
  void poison() { std::fill(Words.begin(), Words.end(), Poison); }
};

// Bytes of a region holding Frames frames of at most 64 bytes, with the
// reserve the rewrite demands below them.
uint64_t regionBytes(size_t Frames) { return RewriteReserve + 64 * Frames + 256; }

std::vector<uint64_t> chain(uint64_t Innermost, std::vector<uint64_t> Callers) {
  Callers.insert(Callers.begin(), Innermost);
  return Callers;
}

// The 3-frame stack: leaf <- middle <- base.
const std::vector<uint64_t> ThreeFrames = {LeafMigrates, MiddleCallsLeaf, BaseCallsMiddle};

// The innermost frame of a recursion Depth frames deep, then the base.
std::vector<uint64_t> recursion(size_t Depth) {
  std::vector<uint64_t> Ids(Depth, MiddleRecurses);
  Ids.front() = MiddleMigrates;
  Ids.back() = BaseCallsMiddle;
  return Ids;
}

class RewriteStack : public ::testing::Test {
protected:
  std::vector<uint64_t> Blob = buildMetadata({&program(EmX86_64), &program(EmAArch64)});
  RegisterSet SourceRegs, Out, Expected;
  std::vector<FramePair> Scratch = std::vector<FramePair>(2048);
  uint64_t SignalReturn = 0;

  RewriteResult rewrite(RegisterSet &Source, uint16_t To, const Region &Destination,
                        uint32_t MaxFrames = 2048) {
    RewriteRequest R{metadata(Blob), &Source, To, DestinationThreadPointer,
                     Destination.region(), Scratch.data(), MaxFrames};
    R.SignalReturn = SignalReturn;
    std::memset(&Out, 0xdd, sizeof Out); // every field must be written
    return rewriteStack(R, Out);
  }

  // Lays out Ids on From in Source, rewrites them for To into Destination,
  // and checks the result is the model's stack on To, exactly: every word
  // of the region (untouched words stay poisoned) and every register.
  void expectRewrite(uint16_t From, uint16_t To, const std::vector<uint64_t> &Ids, Region &Source,
                     Region &Destination) {
    layOut(program(From), Ids, Source.High, SourceRegs, SourceThreadPointer);
    layOut(program(To), Ids, Destination.High, Expected, DestinationThreadPointer);
    std::vector<uint64_t> Want = Destination.Words;
    Destination.poison();

    RewriteResult R = rewrite(SourceRegs, To, Destination);
    ASSERT_EQ(R.Error, RewriteError::None) << describe(R.Error) << " at 0x" << std::hex << R.Pc;
    EXPECT_EQ(R.Frames, Ids.size());

    std::ostringstream Diff;
    unsigned Differences = 0;
    for (size_t I = 0; I < Want.size(); I++)
      if (Destination.Words[I] != Want[I] && Differences++ < 8)
        Diff << " [High-" << std::dec
             << Destination.High - reinterpret_cast<uint64_t>(&Destination.Words[I]) << "] 0x"
             << std::hex << Destination.Words[I] << " != 0x" << Want[I] << "\n";
    EXPECT_EQ(Differences, 0u) << "destination words differ from the model:\n" << Diff.str();
    expectRegisters(Out, Expected);
  }

  static void expectRegisters(const RegisterSet &Got, const RegisterSet &Want) {
    for (unsigned I = 0; I < 32; I++)
      EXPECT_EQ(Got.Gpr[I], Want.Gpr[I]) << "register " << I;
    EXPECT_EQ(Got.Pc, Want.Pc);
    EXPECT_EQ(Got.Sp, Want.Sp);
    EXPECT_EQ(Got.ThreadPointer, Want.ThreadPointer);
    EXPECT_EQ(Got.Machine, Want.Machine);
    EXPECT_EQ(std::memcmp(Got.Vector, Want.Vector, sizeof Got.Vector), 0);
  }
};

//===-- Across ISAs ----------------------------------------------------------===//

// The migration point called from the base: one frame.  Checked by hand.
TEST_F(RewriteStack, OneFrameX86ToAArch64) {
  Region Source(regionBytes(1)), Destination(regionBytes(1));
  layOut(program(EmX86_64), {BaseMigrates}, Source.High, SourceRegs, SourceThreadPointer);
  // The x86-64 base: %rbp = CFA-16, its value at [rbp-8] = CFA-24.
  EXPECT_EQ(SourceRegs.Gpr[X86Rbp], Source.High - 16);
  EXPECT_EQ(Source.at(Source.High - 24), valueWord(0, 0));
  EXPECT_EQ(SourceRegs.Pc, 0x401020u);

  RewriteResult R = rewrite(SourceRegs, EmAArch64, Destination);
  ASSERT_EQ(R.Error, RewriteError::None) << describe(R.Error);
  EXPECT_EQ(R.Frames, 1u);
  // The aarch64 base: 32 bytes below High, the value at [sp+8], x19 in the
  // register set, no frame pointer to set, the return address in Pc and x30.
  EXPECT_EQ(Out.Sp, Destination.High - 32);
  EXPECT_EQ(Out.Pc, 0x801024u);
  EXPECT_EQ(Out.Gpr[A64Lr], 0x801024u);
  EXPECT_EQ(Out.Gpr[A64Fp], 0u);
  EXPECT_EQ(Out.Gpr[A64X19], valueWord(0, 2));
  EXPECT_EQ(Out.ThreadPointer, DestinationThreadPointer);
  EXPECT_EQ(Out.Machine, EmAArch64);
  EXPECT_EQ(Destination.at(Destination.High - 24), valueWord(0, 0));
  // The base's own return address and saved x29 are not the rewrite's to
  // write: it never returns.
  EXPECT_EQ(Destination.at(Destination.High - 8), Poison);
  EXPECT_EQ(Destination.at(Destination.High - 16), Poison);
  EXPECT_EQ(Destination.at(Destination.High - 32), Poison);

  Destination.poison();
  expectRewrite(EmX86_64, EmAArch64, {BaseMigrates}, Source, Destination);
}

TEST_F(RewriteStack, OneFrameAArch64ToX86) {
  Region Source(regionBytes(1)), Destination(regionBytes(1));
  expectRewrite(EmAArch64, EmX86_64, {BaseMigrates}, Source, Destination);
  // The x86-64 base keeps a frame pointer: %rbp = CFA-16.
  EXPECT_EQ(Out.Sp, Destination.High - 32);
  EXPECT_EQ(Out.Gpr[X86Rbp], Destination.High - 16);
  EXPECT_EQ(Out.Pc, 0x401020u);
  EXPECT_EQ(Out.Gpr[X86Rbx], valueWord(0, 2));
  EXPECT_EQ(Destination.at(Destination.High - 24), valueWord(0, 0));
}

TEST_F(RewriteStack, ThreeFramesX86ToAArch64) {
  Region Source(regionBytes(3)), Destination(regionBytes(3));
  expectRewrite(EmX86_64, EmAArch64, ThreeFrames, Source, Destination);
  // By hand: base CFA = H, middle CFA = H-32, leaf CFA = H-96, sp = H-144.
  uint64_t H = Destination.High;
  EXPECT_EQ(Out.Sp, H - 144);
  EXPECT_EQ(Out.Pc, 0x801214u);
  EXPECT_EQ(Out.Gpr[A64Fp], H - 112);                   // the leaf's x29
  EXPECT_EQ(Destination.at(H - 104), 0x801114u);        // leaf's x30 slot: middle's RA
  EXPECT_EQ(Destination.at(H - 112), H - 48);           // leaf's x29 slot: middle's x29
  EXPECT_EQ(Destination.at(H - 120), valueWord(1, 3));  // leaf saves x20: middle's value
  EXPECT_EQ(Destination.at(H - 40), 0x801014u);         // middle's x30 slot: base's RA
  EXPECT_EQ(Destination.at(H - 48), Poison);            // the base has no frame pointer
  EXPECT_EQ(Destination.at(H - 64), valueWord(2, 2));   // middle saves x19: base's value
  EXPECT_EQ(Destination.at(H - 96), valueWord(1, 0));   // middle's [sp]
  EXPECT_EQ(Destination.at(H - 80), valueWord(1, 2));   // the 16-byte slot at x29-32
  EXPECT_EQ(Destination.at(H - 72), valueWord(1, 2, 8, 8));
  // A 4-byte value in a 4-byte slot: the other half of the word untouched.
  EXPECT_EQ(Destination.at(H - 88), (Poison & ~0xffffffffull) | valueWord(1, 1, 4));
  // The leaf's 4-byte value from x86-64's 4-byte slot (whose other half is
  // poison on the source) into an 8-byte slot: zero-extended.
  EXPECT_EQ(Destination.at(H - 144), valueWord(0, 1, 4));
  EXPECT_EQ(Source.at(Source.High - 128) >> 32, Poison >> 32);
}

TEST_F(RewriteStack, ThreeFramesAArch64ToX86) {
  Region Source(regionBytes(3)), Destination(regionBytes(3));
  expectRewrite(EmAArch64, EmX86_64, ThreeFrames, Source, Destination);
  // By hand: base CFA = H, middle CFA = H-32, leaf CFA = H-80, sp = H-128.
  uint64_t H = Destination.High;
  EXPECT_EQ(Out.Sp, H - 128);
  EXPECT_EQ(Out.Pc, 0x401210u);
  EXPECT_EQ(Out.Gpr[X86Rbp], H - 96);                   // the leaf's %rbp
  EXPECT_EQ(Destination.at(H - 88), 0x401110u);         // leaf's RA (CFA-8): into the middle
  // The middle function keeps no frame pointer: the base's %rbp crosses it
  // in the register, so the leaf's save slot holds the base's.
  EXPECT_EQ(Destination.at(H - 96), H - 16);
  EXPECT_EQ(Destination.at(H - 104), valueWord(1, 3));  // leaf saves %r12: middle's value
  EXPECT_EQ(Destination.at(H - 40), 0x401010u);         // middle's RA: into the base
  EXPECT_EQ(Destination.at(H - 48), valueWord(2, 2));   // middle saves %rbx: base's value
  EXPECT_EQ(Destination.at(H - 80), valueWord(1, 0));   // middle's [rsp]
  EXPECT_EQ(Destination.at(H - 64), valueWord(1, 2));   // the 16-byte slot at [rsp+16]
  EXPECT_EQ(Destination.at(H - 56), valueWord(1, 2, 8, 8));
  EXPECT_EQ(Destination.at(H - 24), valueWord(2, 0));   // base's [rbp-8]
  EXPECT_EQ(Destination.at(H - 8), Poison);             // the base's own RA
}

// The thread base's code range is (start, end]: a return address is past
// its call, so a noreturn call ending the base returns to the end address,
// and the walk must stop there rather than read the base's return address.
TEST_F(RewriteStack, BaseCallingAtItsEnd) {
  Region Source(regionBytes(2)), Destination(regionBytes(2));
  expectRewrite(EmX86_64, EmAArch64, {MiddleMigrates, BaseCallsAtItsEnd}, Source, Destination);
  EXPECT_EQ(Destination.at(Destination.High - 32 - 8), 0x801100u);
  Source.poison();
  Destination.poison();
  expectRewrite(EmAArch64, EmX86_64, {MiddleMigrates, BaseCallsAtItsEnd}, Source, Destination);
  EXPECT_EQ(Destination.at(Destination.High - 32 - 8), 0x401100u);
}

// A value x86-64 rematerializes (a constant) and aarch64 keeps in a slot:
// the rewrite writes the constant there, sign-extended.
TEST_F(RewriteStack, ConstantIntoASlot) {
  Region Source(regionBytes(3)), Destination(regionBytes(3));
  layOut(program(EmX86_64), {LeafConstantInASlot, MiddleCallsLeaf, BaseCallsMiddle}, Source.High,
         SourceRegs, SourceThreadPointer);
  RewriteResult R = rewrite(SourceRegs, EmAArch64, Destination);
  ASSERT_EQ(R.Error, RewriteError::None) << describe(R.Error);
  // The aarch64 leaf's sp is H-144; its slot is [sp+8].
  EXPECT_EQ(Out.Sp, Destination.High - 144);
  EXPECT_EQ(Destination.at(Destination.High - 136), uint64_t(-3));
  // The other way, the constant is the destination code's own: nothing to
  // write, and the rest matches the model.
  Destination.poison();
  expectRewrite(EmAArch64, EmX86_64, {LeafConstantInASlot, MiddleCallsLeaf, BaseCallsMiddle},
                Source, Destination);
}

// 16-byte values in the innermost frame's vector registers: xmm1 (DWARF
// 18) and v1 (DWARF 65) are the same RegisterSet::Vector entry.
TEST_F(RewriteStack, VectorRegisters) {
  Region Source(regionBytes(3)), Destination(regionBytes(3));
  std::vector<uint64_t> Ids = {LeafVector, MiddleCallsLeaf, BaseCallsMiddle};
  expectRewrite(EmX86_64, EmAArch64, Ids, Source, Destination);
  for (unsigned K = 0; K < 16; K++)
    EXPECT_EQ(Out.Vector[1][K], valueByte(0, 0, K)) << K;
  Source.poison();
  Destination.poison();
  expectRewrite(EmAArch64, EmX86_64, Ids, Source, Destination);
  EXPECT_EQ(std::memcmp(Out.Vector[1], SourceRegs.Vector[1], 16), 0);
}

//===-- Same ISA: a relocation ---------------------------------------------===//

// Rewriting for the same ISA into another region moves the stack: every
// word is the source's at the same distance from High, except that the
// frame pointers (the only words pointing into the native stack) move by
// the distance between the regions; so do %rbp/x29 and the stack pointer.
void expectRelocation(uint16_t Isa, const std::vector<uint64_t> &Ids, RegisterSet &SourceRegs,
                      const RegisterSet &Out, const Region &Source, const Region &Destination) {
  uint64_t Delta = Destination.High - Source.High;
  auto Relocated = [&](uint64_t W) {
    return W >= Source.Low && W <= Source.High ? W + Delta : W;
  };
  size_t Words = (Source.High - Source.Low) / 8, Moved = 0;
  const uint64_t *S = reinterpret_cast<const uint64_t *>(Source.Low);
  const uint64_t *D = reinterpret_cast<const uint64_t *>(Destination.Low);
  for (size_t I = 0; I < Words; I++) {
    EXPECT_EQ(D[I], Relocated(S[I])) << "at High-" << (Words - I) * 8;
    Moved += S[I] != Relocated(S[I]);
  }
  // One frame pointer per frame that keeps one and has a more recent frame
  // saving it (the others are in the register).
  const IsaProgram &P = program(Isa);
  uint16_t Fp = frameRegisters(Isa).Fp;
  size_t SavedFps = 0;
  for (size_t I = 1; I < Ids.size(); I++) {
    bool Saved = false;
    for (size_t J = 0; J < I; J++)
      for (const popcorn_saved_register &S : P.layout(P.site(Ids[J])).Saves)
        Saved |= S.dwarf_register == Fp;
    SavedFps += Saved && P.layout(P.site(Ids[I])).CfaRegister == Fp;
  }
  EXPECT_EQ(Moved, SavedFps);
  for (unsigned I = 0; I < 32; I++)
    EXPECT_EQ(Out.Gpr[I], Relocated(SourceRegs.Gpr[I])) << "register " << I;
  EXPECT_EQ(Out.Sp, SourceRegs.Sp + Delta);
  EXPECT_EQ(Out.Pc, SourceRegs.Pc);
  EXPECT_EQ(Out.ThreadPointer, DestinationThreadPointer);
}

TEST_F(RewriteStack, SameIsaX86IsARelocation) {
  Region Source(regionBytes(3)), Destination(regionBytes(3));
  expectRewrite(EmX86_64, EmX86_64, ThreeFrames, Source, Destination);
  expectRelocation(EmX86_64, ThreeFrames, SourceRegs, Out, Source, Destination);
}

TEST_F(RewriteStack, SameIsaAArch64IsARelocation) {
  Region Source(regionBytes(3)), Destination(regionBytes(3));
  expectRewrite(EmAArch64, EmAArch64, ThreeFrames, Source, Destination);
  expectRelocation(EmAArch64, ThreeFrames, SourceRegs, Out, Source, Destination);
}

TEST_F(RewriteStack, SameIsaRecursionIsARelocation) {
  auto Ids = recursion(50);
  Region Source(regionBytes(50)), Destination(regionBytes(50));
  expectRewrite(EmX86_64, EmX86_64, Ids, Source, Destination);
  expectRelocation(EmX86_64, Ids, SourceRegs, Out, Source, Destination);
}

//===-- Deep stacks -------------------------------------------------------===//

// 1000 frames of one recursive function: every pass is linear, and each
// frame's return address and values land at its own depth.
TEST_F(RewriteStack, ThousandFramesX86ToAArch64) {
  auto Ids = recursion(1000);
  Region Source(regionBytes(1000)), Destination(regionBytes(1000));
  expectRewrite(EmX86_64, EmAArch64, Ids, Source, Destination);
  uint64_t H = Destination.High;
  // Base (32 bytes), then 999 middle frames of 64 bytes.
  EXPECT_EQ(Out.Sp, H - 32 - 999 * 64);
  EXPECT_EQ(Out.Pc, 0x801134u);
  // The outermost middle frame returns into the base, the others into the
  // middle function; each saves its caller's x29 (none for the base).
  EXPECT_EQ(Destination.at(H - 32 - 8), 0x801014u);
  EXPECT_EQ(Destination.at(H - 32 - 16), Poison);
  for (uint64_t K : {1, 2, 500, 998}) {
    uint64_t Cfa = H - 32 - K * 64; // CFA of the middle frame K+1 from the base
    EXPECT_EQ(Destination.at(Cfa - 8), 0x801124u) << K;
    EXPECT_EQ(Destination.at(Cfa - 16), Cfa + 64 - 16) << K;
    size_t Frame = 998 - K; // from the innermost
    EXPECT_EQ(Destination.at(Cfa - 64), valueWord(Frame, 0)) << K;
  }
}

TEST_F(RewriteStack, ThousandFramesAArch64ToX86) {
  auto Ids = recursion(1000);
  Region Source(regionBytes(1000)), Destination(regionBytes(1000));
  expectRewrite(EmAArch64, EmX86_64, Ids, Source, Destination);
  uint64_t H = Destination.High;
  EXPECT_EQ(Out.Sp, H - 32 - 999 * 48);
  // No middle frame saves %rbp: the base's frame pointer is in the register.
  EXPECT_EQ(Out.Gpr[X86Rbp], H - 16);
  // The outermost middle frame saves %rbx, the base's value.
  EXPECT_EQ(Destination.at(H - 32 - 16), valueWord(999, 2));
  for (uint64_t K : {1, 2, 500, 998}) {
    uint64_t Cfa = H - 32 - K * 48;
    EXPECT_EQ(Destination.at(Cfa - 8), 0x401120u) << K;
    EXPECT_EQ(Destination.at(Cfa - 48), valueWord(998 - K, 0)) << K;
  }
}

//===-- setjmp frames -------------------------------------------------------===//

// A setjmp drops the entries of frames below its own, which have returned,
// and shares its frame's entry with the frame's other setjmps.
TEST(SetjmpFrames, NoteKeepsTheLiveFramesInStackOrder) {
  SetjmpFrames T{};
  uint64_t Outer = T.note(0x9000, 1), Inner = T.note(0x8000, 2);
  EXPECT_NE(Outer, Inner);
  EXPECT_EQ(T.note(0x8000, 3), Inner) << "another setjmp of the same frame";
  uint64_t Between = T.note(0x8800, 4);
  EXPECT_EQ(T.Count, 2u);
  EXPECT_EQ(T.find(Inner), nullptr) << "a frame below the new setjmp's has returned";
  ASSERT_NE(T.find(Outer), nullptr);
  ASSERT_NE(T.find(Between), nullptr);
  EXPECT_EQ(T.find(Between)->Sp, 0x8800u);
  EXPECT_EQ(T.note(0x9000, 5), Outer);
  EXPECT_EQ(T.Count, 1u);
}

TEST(SetjmpFrames, FullTableRefusesANewFrame) {
  SetjmpFrames T{};
  for (uint64_t I = 0; I < SetjmpFrames::Capacity; I++)
    EXPECT_NE(T.note(0x100000 - I * 16, 0), 0u) << I;
  EXPECT_EQ(T.note(0x100000 - SetjmpFrames::Capacity * 16, 0), 0u);
  EXPECT_NE(T.note(0x100000 - 16, 0), 0u) << "a frame of the table is noted again";
}

// A rewrite gives every entry its frame's depth and its place on the new
// ISA's stack, and drops those no frame holds: below the innermost frame,
// or whose setjmp is not of its frame's function.
TEST_F(RewriteStack, SetjmpFramesFollowARewrite) {
  auto Ids = recursion(1000);
  Region Source(regionBytes(1000)), Destination(regionBytes(1000)), Model(regionBytes(1000));
  Layout From = layOut(program(EmX86_64), Ids, Source.High, SourceRegs, SourceThreadPointer);
  Layout To = layOut(program(EmAArch64), Ids, Model.High, Expected, DestinationThreadPointer);
  SetjmpFrames T{};
  uint64_t Base = T.note(From.Sp[999], 0x401010);        // BaseCallsMiddle
  uint64_t Middle = T.note(From.Sp[500], 0x401120);      // MiddleRecurses
  uint64_t Foreign = T.note(From.Sp[2], 0x401210);       // a leaf's site
  uint64_t Innermost = T.note(From.Sp[0], 0x401130);     // MiddleMigrates
  uint64_t Returned = T.note(From.Sp[0] - 256, 0x401120);
  ASSERT_EQ(T.Count, 5u);

  RewriteResult R = rewrite(SourceRegs, EmAArch64, Destination);
  ASSERT_EQ(R.Error, RewriteError::None) << describe(R.Error);
  IsaTables X86(metadata(Blob), EmX86_64), A64(metadata(Blob), EmAArch64);
  moveSetjmpFrames(T, X86, A64, Scratch.data(), R.Frames);

  EXPECT_EQ(T.Generation, 1u);
  EXPECT_EQ(T.Count, 3u);
  EXPECT_EQ(T.find(Foreign), nullptr);
  EXPECT_EQ(T.find(Returned), nullptr);
  struct Want {
    uint64_t Serial;
    size_t Frame;
    uint64_t Pc;
  };
  for (Want W : {Want{Base, 999, 0x801014}, Want{Middle, 500, 0x801124},
                 Want{Innermost, 0, 0x801134}}) {
    const SetjmpFrame *E = T.find(W.Serial);
    ASSERT_NE(E, nullptr) << W.Frame;
    EXPECT_EQ(E->Sp, Destination.High - (Model.High - To.Sp[W.Frame])) << W.Frame;
    EXPECT_EQ(E->Pc, W.Pc) << W.Frame;
    EXPECT_EQ(E->Depth, 1000 - W.Frame) << W.Frame;
  }
}

//===-- Refusals ------------------------------------------------------------===//

// A refusal names its reason and leaves the source thread as it was.
class RewriteRefusal : public RewriteStack {
protected:
  Region Source{regionBytes(3)}, Destination{regionBytes(3)};
  std::vector<uint64_t> SourceWords;
  RegisterSet SourceBefore;

  void prepare(uint16_t From, const std::vector<uint64_t> &Ids) {
    layOut(program(From), Ids, Source.High, SourceRegs, SourceThreadPointer);
    snapshot();
  }
  void snapshot() {
    SourceWords = Source.Words;
    SourceBefore = SourceRegs;
  }
  void expectRefusal(RewriteResult R, RewriteError E, uint32_t Frames, uint64_t Pc) {
    EXPECT_EQ(int(R.Error), int(E)) << describe(R.Error);
    EXPECT_EQ(R.Frames, Frames);
    EXPECT_EQ(R.Pc, Pc);
    std::string Reason = describe(R.Error);
    EXPECT_FALSE(Reason.empty());
    EXPECT_NE(Reason, describe(RewriteError::None));
    EXPECT_EQ(Source.Words, SourceWords) << "the source stack was written";
    EXPECT_EQ(std::memcmp(&SourceRegs, &SourceBefore, sizeof SourceRegs), 0)
        << "the source registers were written";
  }
};

TEST_F(RewriteRefusal, PcIsNotACallSite) {
  prepare(EmX86_64, ThreeFrames);
  SourceRegs.Pc = 0x401215; // inside the leaf, but no call returns there
  snapshot();
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::NotACallSite, 0,
                0x401215);
}

TEST_F(RewriteRefusal, ReturnAddressIsNotACallSite) {
  prepare(EmX86_64, ThreeFrames);
  // The leaf's return address (at CFA-8) says it was called from nowhere
  // recorded, as for a frame of code that cannot migrate.
  uint64_t LeafCfa = Source.High - 32 - 48;
  ASSERT_EQ(Source.at(LeafCfa - 8), 0x401110u);
  Source.at(LeafCfa - 8) = 0x401111;
  snapshot();
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::NotACallSite, 1,
                0x401111);
}

TEST_F(RewriteRefusal, SignalHandlerFrame) {
  prepare(EmX86_64, ThreeFrames);
  // The leaf is a signal handler: its return address is libc's signal
  // return trampoline, and the kernel's signal frame is above it.
  uint64_t LeafCfa = Source.High - 32 - 48;
  Source.at(LeafCfa - 8) = 0x401800;
  snapshot();
  SignalReturn = 0x401800;
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::SignalFrame, 1,
                0x401800);
  // Any other address without a record is not taken for one.
  SignalReturn = 0x401804;
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::NotACallSite, 1,
                0x401800);
}

TEST_F(RewriteRefusal, IdMissingOnTheDestination) {
  prepare(EmX86_64, {LeafOnlyOnX86, MiddleCallsLeaf, BaseCallsMiddle});
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::NoDestinationSite, 0,
                0x401220);
}

TEST_F(RewriteRefusal, VaListInAnOuterFrame) {
  prepare(EmAArch64, {LeafMigrates, MiddleCallsLeafVaList, BaseCallsMiddle});
  expectRefusal(rewrite(SourceRegs, EmX86_64, Destination), RewriteError::VaListLive, 1,
                0x801144);
}

TEST_F(RewriteRefusal, IncompleteSite) {
  prepare(EmX86_64, {LeafIncomplete, MiddleCallsLeaf, BaseCallsMiddle});
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::Incomplete, 0,
                0x401240);
}

TEST_F(RewriteRefusal, RecordsDisagree) {
  prepare(EmX86_64, {LeafShapesDiffer, MiddleCallsLeaf, BaseCallsMiddle});
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::ShapeMismatch, 0,
                0x401250);
}

TEST_F(RewriteRefusal, DestinationRegionTooSmall) {
  prepare(EmX86_64, ThreeFrames);
  // The aarch64 frames take 144 bytes, and RewriteReserve must stay free.
  Region Small(RewriteReserve + 144 - 16);
  expectRefusal(rewrite(SourceRegs, EmAArch64, Small), RewriteError::RegionTooSmall, 3, 0x801214);
  // Exactly enough is enough.
  Region Exact(RewriteReserve + 144);
  RewriteResult R = rewrite(SourceRegs, EmAArch64, Exact);
  EXPECT_EQ(R.Error, RewriteError::None) << describe(R.Error);
  EXPECT_EQ(Out.Sp, Exact.Low + RewriteReserve);
}

// A record that disagrees with its frame's layout must not make a rewrite
// write outside the destination region (a buffer standing in for another
// process's stack, in a node).
TEST_F(RewriteRefusal, SlotOutsideTheRegion) {
  prepare(EmX86_64, {LeafSlotAboveRegion, MiddleCallsLeaf, BaseCallsMiddle});
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::SlotOutsideRegion, 3,
                0x401280);
}

TEST_F(RewriteRefusal, DeeperThanTheScratchSpace) {
  prepare(EmX86_64, ThreeFrames);
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination, 2), RewriteError::TooDeep, 2,
                0x401010);
}

TEST_F(RewriteRefusal, NoMetadataForTheDestination) {
  prepare(EmX86_64, ThreeFrames);
  Blob = buildMetadata({&program(EmX86_64)});
  expectRefusal(rewrite(SourceRegs, EmAArch64, Destination), RewriteError::NoMetadata, 0,
                0x401210);
  Blob[0] ^= 1; // not the magic number: no ISA at all
  expectRefusal(rewrite(SourceRegs, EmX86_64, Destination), RewriteError::NoMetadata, 0,
                0x401210);
}

TEST(RewriteDescribe, EveryErrorHasItsOwnReason) {
  std::vector<std::string> Seen;
  for (int E = int(RewriteError::None); E <= int(RewriteError::SlotOutsideRegion); E++) {
    std::string Reason = describe(RewriteError(E));
    EXPECT_FALSE(Reason.empty()) << E;
    EXPECT_EQ(std::count(Seen.begin(), Seen.end(), Reason), 0) << Reason;
    Seen.push_back(Reason);
  }
}

} // namespace
