//===- Report.h - Messages from the runtime, without libc -------*- C++ -*-===//
#ifndef POPCORN_RUNTIME_REPORT_H
#define POPCORN_RUNTIME_REPORT_H

#include "support/Syscall.h"

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

/// Text built in a caller's buffer of Size bytes, always NUL-terminated,
/// cut at its size; numbers formatted without libc (no locale, no errno).
class TextBuffer {
public:
  TextBuffer(char *Buffer, uint32_t Size) : Buf(Buffer), Room(Size) { Buf[0] = 0; }
  TextBuffer &operator<<(const char *S) {
    while (S && *S && Length + 1 < Room)
      Buf[Length++] = *S++;
    Buf[Length] = 0;
    return *this;
  }
  /// The Count characters at S (a piece of a longer string).
  TextBuffer &write(const char *S, uint64_t Count) {
    for (; Count && Length + 1 < Room; Count--)
      Buf[Length++] = *S++;
    Buf[Length] = 0;
    return *this;
  }
  TextBuffer &operator<<(uint64_t V) {
    char Digits[21];
    decimalDigits(V, Digits);
    return *this << static_cast<const char *>(Digits);
  }
  TextBuffer &operator<<(int64_t V) {
    if (V < 0)
      return *this << "-" << (uint64_t(0) - uint64_t(V));
    return *this << uint64_t(V);
  }
  TextBuffer &operator<<(int V) { return *this << int64_t(V); }
  TextBuffer &operator<<(unsigned V) { return *this << uint64_t(V); }
  TextBuffer &hex(uint64_t V) {
    char Digits[19];
    hexDigits(V, Digits);
    return *this << static_cast<const char *>(Digits);
  }
  const char *str() const { return Buf; }
  uint32_t length() const { return Length; }

private:
  char *Buf;
  uint32_t Room, Length = 0;
};

// One line built in a fixed buffer and written to stderr at once, so lines
// of several threads do not interleave.  Room for the longest a line
// holds: a node's name with a 63-character host, the reason its start
// failed (StartNodes.h: StartFailure, a launcher's own error in it) and
// what happens next ("; the thread stays home").
class Line : public TextBuffer {
public:
  Line() : TextBuffer(Storage, sizeof Storage - 1) {}
  ~Line() {
    uint32_t N = length();
    Storage[N] = '\n';
    sys::write(2, Storage, N + 1);
  }

private:
  char Storage[513];
};

} // namespace popcorn

#endif
