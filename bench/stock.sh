# Sourced by bench/run.sh and bench/size.sh (bash): build a C or C++
# program the way a user without Popcorn would, as the honest baseline.
#
#   clang-19 -O2 --target=ISA-linux-musl, linked -static against Debian's
#   unmodified musl (package musl-dev; for aarch64 musl-dev:arm64, see
#   scripts/install-deps.sh) and libgcc for the compiler builtins.
#
#   stock_init ISA [FALLBACK_SYSROOT]
#       ISA is x86_64 or aarch64.  Finds the headers, crt files, libc.a and
#       libgcc.a; returns non-zero with a message if they are missing.  With
#       FALLBACK_SYSROOT (a Popcorn sysroot, BUILD_DIR/lib/popcorn/ISA) it
#       uses that musl instead when Debian's is not installed, and says so
#       in STOCK_NOTE_<ISA>.
#   stock_build ISA SRC OUT
#       Compiles SRC to OUT.o and links OUT; stdout/stderr are the tools'.
#
#   stock_cxx_init WORK_DIR
#       For C++ (x86_64 only, after stock_init x86_64): builds LLVM 19's
#       libc++, libc++abi and libunwind from Debian's llvm-toolchain-19
#       source, unpatched, with clang-19 against the same musl
#       (libcxx/build-libcxx.sh --stock; once: it skips an unchanged
#       build) into WORK_DIR, the same version Popcorn's libc++ is.
#       LIBCXX_SRC, an already fetched source tree, saves fetching it.
#   stock_build_cxx SRC OUT
#       Compiles C++ SRC with clang++-19 (CLANGXX) to OUT.o against that
#       libc++ and links OUT as clang++ -static does, with the three
#       libraries before libc.
#
# Needs CLANG and LLD set (clang-19, ld.lld-19).  Override Debian's paths
# with STOCK_MUSL_INCLUDE_<ISA>, STOCK_MUSL_LIB_<ISA>, STOCK_LIBGCC_<ISA>.

stock_init() { # ISA [FALLBACK_SYSROOT]
  local isa=$1 fallback=${2:-} gnu inc lib rt f
  case $isa in
    x86_64) gnu=x86_64-linux-gnu ;;
    aarch64) gnu=aarch64-linux-gnu ;;
    *) echo "stock.sh: unknown ISA '$isa' (x86_64 or aarch64)" >&2; return 2 ;;
  esac
  inc=STOCK_MUSL_INCLUDE_$isa lib=STOCK_MUSL_LIB_$isa rt=STOCK_LIBGCC_$isa
  : "${STOCK_RESOURCE_DIR:=$("$CLANG" -print-resource-dir)}"
  printf -v "$inc" '%s' "${!inc:-/usr/include/$isa-linux-musl}"
  printf -v "$lib" '%s' "${!lib:-/usr/lib/$isa-linux-musl}"
  printf -v "$rt" '%s' "${!rt:-$("$CLANG" --target="$gnu" --rtlib=libgcc -print-libgcc-file-name)}"
  printf -v "STOCK_NOTE_$isa" '%s' "Debian musl-dev (${!lib})"
  for f in crt1.o crti.o crtn.o libc.a; do
    if [ ! -f "${!lib}/$f" ]; then
      if [ -n "$fallback" ] && [ -f "$fallback/lib/libc.a" ]; then
        printf -v "$inc" '%s' "$fallback/include"
        printf -v "$lib" '%s' "$fallback/lib"
        # Popcorn's x86-64 musl has aarch64's binary128 long double.
        [ "$isa" = x86_64 ] && printf -v "STOCK_CFLAGS_$isa" '%s' -mlong-double-128
        printf -v "STOCK_NOTE_$isa" '%s' \
          "Popcorn's own patched musl (no Debian musl for $isa installed: ${!lib}/$f missing)"
        break
      fi
      echo "stock.sh: no $isa musl: ${!lib}/$f is missing (install musl-dev for $isa," \
        "see scripts/install-deps.sh)" >&2
      return 1
    fi
  done
  [ -f "${!inc}/stdio.h" ] || { echo "stock.sh: no $isa musl headers in ${!inc}" >&2; return 1; }
  [ -f "${!rt}" ] || { echo "stock.sh: no $isa libgcc.a (${!rt})" >&2; return 1; }
}

stock_build() { # ISA SRC OUT
  local isa=$1 inc=STOCK_MUSL_INCLUDE_$1 lib=STOCK_MUSL_LIB_$1 rt=STOCK_LIBGCC_$1 emu
  local flags=STOCK_CFLAGS_$1
  case $isa in x86_64) emu=elf_x86_64 ;; aarch64) emu=aarch64linux ;; esac
  "$CLANG" --target="$isa-linux-musl" -nostdinc -isystem "${!inc}" \
    -isystem "$STOCK_RESOURCE_DIR/include" ${!flags:-} -O2 -c "$2" -o "$3.o" &&
    "$LLD" -m "$emu" -static -o "$3" "${!lib}/crt1.o" "${!lib}/crti.o" "$3.o" \
      --start-group "${!lib}/libc.a" "${!rt}" --end-group "${!lib}/crtn.o"
}

stock_cxx_init() { # WORK_DIR
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  : "${CLANGXX:=clang++-19}"
  CLANG=$CLANG CLANGXX=$CLANGXX STOCK_MUSL_INCLUDE_x86_64=$STOCK_MUSL_INCLUDE_x86_64 \
    "$here/../libcxx/build-libcxx.sh" --stock "$1" >&2 || return 1
  STOCK_CXX=$(cd "$1/install" && pwd) || return 1
  local f
  for f in include/c++/v1/vector lib/libc++.a lib/libc++abi.a lib/libunwind.a; do
    [ -f "$STOCK_CXX/$f" ] || { echo "stock.sh: no stock libc++: $STOCK_CXX/$f is missing" >&2; return 1; }
  done
}

stock_build_cxx() { # SRC OUT
  local inc=$STOCK_MUSL_INCLUDE_x86_64 lib=$STOCK_MUSL_LIB_x86_64 rt=$STOCK_LIBGCC_x86_64
  "$CLANGXX" --target=x86_64-linux-musl -nostdinc -nostdinc++ -isystem "$STOCK_CXX/include/c++/v1" \
    -isystem "$inc" -isystem "$STOCK_RESOURCE_DIR/include" -O2 -c "$1" -o "$2.o" &&
    "$LLD" -m elf_x86_64 -static --eh-frame-hdr -o "$2" "$lib/crt1.o" "$lib/crti.o" "$2.o" \
      "$STOCK_CXX/lib/libc++.a" "$STOCK_CXX/lib/libc++abi.a" "$STOCK_CXX/lib/libunwind.a" \
      --start-group "$lib/libc.a" "$rt" --end-group "$lib/crtn.o"
}
