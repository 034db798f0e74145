//===- Text.h - Numbers in settings, before libc is ready -------*- C++ -*-===//
//
// The runtime reads POPCORN_NODES and POPCORN_NODE before libc has set up
// the thread pointer, so nothing here may touch errno (strtol does, on a
// string without digits).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_TEXT_H
#define POPCORN_RUNTIME_TEXT_H

#include <stdint.h>

namespace popcorn {

/// The decimal number at P, at most Max; P moves past it.  False if P
/// holds no digit or the number is larger.
inline bool readUnsigned(const char *&P, uint64_t Max, uint64_t &Out) {
  const char *Start = P;
  Out = 0;
  for (; *P >= '0' && *P <= '9'; P++) {
    Out = Out * 10 + uint64_t(*P - '0');
    if (Out > Max)
      return false;
  }
  return P != Start;
}

} // namespace popcorn

#endif
