//===- Report.h - Messages from the runtime, without libc -------*- C++ -*-===//
#ifndef POPCORN_RUNTIME_REPORT_H
#define POPCORN_RUNTIME_REPORT_H

#include "Syscall.h"

namespace popcorn {

// One line built in a fixed buffer and written to stderr at once, so lines
// of several threads do not interleave.
class Line {
public:
  Line &operator<<(const char *S) {
    while (*S && N < sizeof Buf - 1)
      Buf[N++] = *S++;
    return *this;
  }
  Line &operator<<(uint64_t V) {
    char Digits[24];
    int D = 0;
    do
      Digits[D++] = char('0' + V % 10);
    while (V /= 10);
    while (D && N < sizeof Buf - 1)
      Buf[N++] = Digits[--D];
    return *this;
  }
  Line &hex(uint64_t V) {
    *this << "0x";
    bool Started = false;
    for (int Shift = 60; Shift >= 0; Shift -= 4) {
      unsigned Nibble = (V >> Shift) & 15;
      if (Nibble || Started || Shift == 0) {
        Started = true;
        char C[2] = {"0123456789abcdef"[Nibble], 0};
        *this << C;
      }
    }
    return *this;
  }
  ~Line() {
    Buf[N++] = '\n';
    sys::write(2, Buf, N);
  }

private:
  char Buf[256];
  unsigned N = 0;
};

} // namespace popcorn

#endif
