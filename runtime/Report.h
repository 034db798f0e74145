//===- Report.h - Messages from the runtime, without libc -------*- C++ -*-===//
#ifndef POPCORN_RUNTIME_REPORT_H
#define POPCORN_RUNTIME_REPORT_H

#include "Syscall.h"

namespace popcorn {

/// V's decimal digits into Out (21 bytes are enough); no libc.
inline void decimalDigits(uint64_t V, char *Out) {
  char Reversed[20];
  int D = 0;
  do
    Reversed[D++] = char('0' + V % 10);
  while (V /= 10);
  while (D)
    *Out++ = Reversed[--D];
  *Out = 0;
}

/// V as "0x" and its hexadecimal digits, without leading zeros, into Out
/// (19 bytes are enough); no libc.
inline void hexDigits(uint64_t V, char *Out) {
  *Out++ = '0';
  *Out++ = 'x';
  bool Started = false;
  for (int Shift = 60; Shift >= 0; Shift -= 4) {
    unsigned Nibble = (V >> Shift) & 15;
    if (Nibble || Started || Shift == 0) {
      Started = true;
      *Out++ = "0123456789abcdef"[Nibble];
    }
  }
  *Out = 0;
}

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
    char Digits[21];
    decimalDigits(V, Digits);
    return *this << Digits;
  }
  Line &hex(uint64_t V) {
    char Digits[19];
    hexDigits(V, Digits);
    return *this << Digits;
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
