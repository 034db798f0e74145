//===- popcorn/Isa.h - The ISAs a multi-ISA program is built for -*- C++ -*-===//
//
// One table of the instruction set architectures the toolchain targets, used
// by the driver, the per-ISA back end, the linker tools and the inspector, so
// they agree on names, triples and where each ISA's image lives in a file.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_ISA_H
#define POPCORN_ISA_H

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace popcorn {

enum class Isa { X86_64, AArch64 };

struct IsaInfo {
  Isa Id;
  std::string_view Name;       // as on the command line and in sysroot paths
  std::string_view Triple;     // LLVM target triple
  std::string_view Cpu;        // generic CPU model for the back end
  std::string_view LldEmulation;
  uint16_t ElfMachine;         // e_machine of this ISA's ELF files
};

// The host ISA comes first: a multi-ISA file is a runnable executable (or an
// ordinary relocatable object) of the host ISA, carrying the other ISAs'
// images in extra sections.
inline constexpr std::array<IsaInfo, 2> AllIsas = {{
    {Isa::X86_64, "x86_64", "x86_64-unknown-linux-musl", "x86-64", "elf_x86_64", 62},
    {Isa::AArch64, "aarch64", "aarch64-unknown-linux-musl", "generic", "aarch64linux", 183},
}};

inline constexpr const IsaInfo &HostIsa = AllIsas[0];

// The IR every ISA's code is generated from (docs/architecture.md): aarch64's
// data layout and long double lower correctly for x86-64; the reverse does not.
inline constexpr const IsaInfo &CanonicalIrIsa = AllIsas[1];

inline const IsaInfo &info(Isa I) {
  for (const IsaInfo &Info : AllIsas)
    if (Info.Id == I)
      return Info;
  __builtin_unreachable();
}

inline std::optional<Isa> parseIsa(std::string_view Name) {
  for (const IsaInfo &Info : AllIsas)
    if (Info.Name == Name)
      return Info.Id;
  if (Name == "arm64")
    return Isa::AArch64;
  if (Name == "x86-64" || Name == "amd64")
    return Isa::X86_64;
  return std::nullopt;
}

// Name of the section of a host-ISA ELF file (object or executable) that holds
// the ELF file of another ISA: ".popcorn.isa.aarch64".
inline std::string imageSectionName(Isa I) {
  return std::string(".popcorn.isa.") + std::string(info(I).Name);
}

} // namespace popcorn

#endif
