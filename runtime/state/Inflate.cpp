//===- Inflate.cpp - Decompress a zlib stream, freestanding ---------------===//
#include "state/Inflate.h"

namespace popcorn {
namespace {

constexpr unsigned MaxCodeLength = 15;
constexpr unsigned LiteralLengthSymbols = 288; // 286 used, 2 reserved
constexpr unsigned DistanceSymbols = 30;

// Bits are read least significant first.  fill() takes up to seven bytes
// at once where the stream has eight more; near its end a byte is fetched
// only when needed, so a stream that ends early is noticed where it ends.
struct BitReader {
  const uint8_t *In;
  size_t Size;
  size_t Next = 0;
  uint64_t Bits = 0; // bits past Count repeat stream bits not yet taken in
  unsigned Count = 0;
  bool Overrun = false;

  // At least N <= 24 bits in Bits, or as many as the stream still has.
  void fill(unsigned N) {
    if (Count >= N)
      return;
    if (Size - Next >= 8) {
      // Little endian (x86-64, aarch64): the next bytes, in stream order.
      // Those past the whole bytes taken in are ORed in again, at the same
      // place, by the next fill.
      uint64_t Word;
      __builtin_memcpy(&Word, In + Next, 8);
      Bits |= Word << Count;
      unsigned Bytes = (63 - Count) / 8;
      Next += Bytes;
      Count += Bytes * 8;
      return;
    }
    while (Count < N && Next < Size) {
      Bits |= uint64_t(In[Next++]) << Count;
      Count += 8;
    }
  }

  void drop(unsigned N) {
    Bits >>= N;
    Count -= N;
  }

  // N <= 16.
  uint32_t take(unsigned N) {
    fill(N);
    if (Count < N) {
      Overrun = true;
      return 0;
    }
    uint32_t Value = uint32_t(Bits & ((1u << N) - 1));
    drop(N);
    return Value;
  }

  void skipToByte() {
    Bits >>= Count % 8;
    Count -= Count % 8;
  }
};

// Codes of up to FastBits bits are decoded by one look-up of the next
// FastBits bits of the stream; longer ones a bit at a time.
constexpr unsigned FastBits = 9;

// A canonical Huffman code (RFC 1951, 3.2.2): how many codes have each
// length, and the symbols in the order of their codes; per value of the
// next FastBits bits, the symbol of a code they start with (symbol << 4 |
// its length; 0 if they start no code that short).
struct HuffmanCode {
  uint16_t CountOfLength[MaxCodeLength + 1];
  uint16_t Symbols[LiteralLengthSymbols];
  uint16_t Fast[1u << FastBits];
};

// False if the lengths describe more codes than fit (an over-subscribed
// code).  An incomplete code is allowed: a stream may need a single
// distance code, and a code that is never sent is never decoded.
bool buildCode(HuffmanCode &Code, const uint8_t *Lengths, unsigned Symbols) {
  for (uint16_t &C : Code.CountOfLength)
    C = 0;
  for (unsigned S = 0; S < Symbols; S++)
    Code.CountOfLength[Lengths[S]]++;
  Code.CountOfLength[0] = 0;
  int Left = 1;
  for (unsigned L = 1; L <= MaxCodeLength; L++) {
    Left = 2 * Left - Code.CountOfLength[L];
    if (Left < 0)
      return false;
  }
  uint16_t FirstOfLength[MaxCodeLength + 1];
  FirstOfLength[1] = 0;
  for (unsigned L = 1; L < MaxCodeLength; L++)
    FirstOfLength[L + 1] = uint16_t(FirstOfLength[L] + Code.CountOfLength[L]);
  for (unsigned S = 0; S < Symbols; S++)
    if (Lengths[S])
      Code.Symbols[FirstOfLength[Lengths[S]]++] = uint16_t(S);

  // Codes are sent most significant bit first, the look-up takes the next
  // bits least significant first: index by the code reversed.
  for (uint16_t &F : Code.Fast)
    F = 0;
  unsigned Index = 0, First = 0;
  for (unsigned L = 1; L <= FastBits; L++) {
    for (unsigned I = 0; I < Code.CountOfLength[L]; I++) {
      unsigned Value = First + I, Reversed = 0;
      for (unsigned B = 0; B < L; B++)
        Reversed |= ((Value >> B) & 1) << (L - 1 - B);
      for (unsigned Fill = Reversed; Fill < (1u << FastBits); Fill += 1u << L)
        Code.Fast[Fill] = uint16_t(Code.Symbols[Index + I] << 4 | L);
    }
    Index += Code.CountOfLength[L];
    First = (First + Code.CountOfLength[L]) << 1;
  }
  return true;
}

// The codes of one length are consecutive numbers, after those of the
// shorter lengths shifted left: read a bit at a time until the code read
// so far falls among the current length's codes.  -1: no such code.
int decodeSymbol(BitReader &R, const HuffmanCode &Code) {
  R.fill(FastBits);
  uint16_t Fast = Code.Fast[R.Bits & ((1u << FastBits) - 1)];
  if (Fast && (Fast & 15) <= R.Count) {
    R.drop(Fast & 15);
    return Fast >> 4;
  }
  int Read = 0, First = 0, Index = 0;
  for (unsigned L = 1; L <= MaxCodeLength; L++) {
    Read |= int(R.take(1));
    int Count = Code.CountOfLength[L];
    if (Read - First < Count)
      return R.Overrun ? -1 : Code.Symbols[Index + Read - First];
    Index += Count;
    First = (First + Count) << 1;
    Read <<= 1;
  }
  return -1;
}

// RFC 1951, 3.2.5: the base and extra bits of length symbols 257-285 and
// of distance symbols 0-29.
constexpr uint16_t LengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                     31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t LengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                     2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t DistanceBase[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                       33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                       1025, 1537, 2049, 3073, 4097, 6145,  8193,  12289, 16385,
                                       24577};
constexpr uint8_t DistanceExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

struct Output {
  uint8_t *Out;
  size_t Size;
  size_t Written = 0;
};

// The symbols of one compressed block, up to its end-of-block symbol.
bool inflateCodes(BitReader &R, Output &O, const HuffmanCode &Literals,
                  const HuffmanCode &Distances) {
  for (;;) {
    int Symbol = decodeSymbol(R, Literals);
    if (Symbol < 0)
      return false;
    if (Symbol < 256) {
      if (O.Written == O.Size)
        return false;
      O.Out[O.Written++] = uint8_t(Symbol);
      continue;
    }
    if (Symbol == 256)
      return true;
    unsigned LengthIndex = unsigned(Symbol) - 257;
    if (LengthIndex >= 29)
      return false;
    size_t Length = LengthBase[LengthIndex] + R.take(LengthExtra[LengthIndex]);
    int DistanceSymbol = decodeSymbol(R, Distances);
    if (DistanceSymbol < 0 || unsigned(DistanceSymbol) >= DistanceSymbols)
      return false;
    size_t Distance = DistanceBase[DistanceSymbol] + R.take(DistanceExtra[DistanceSymbol]);
    if (R.Overrun || Distance > O.Written || Length > O.Size - O.Written)
      return false;
    uint8_t *To = O.Out + O.Written;
    O.Written += Length;
    if (Distance >= Length) {
      __builtin_memcpy(To, To - Distance, Length);
      continue;
    }
    // Byte by byte: the copy overlaps the bytes it produces.
    for (; Length; Length--, To++)
      *To = To[-Distance];
  }
}

bool inflateStored(BitReader &R, Output &O) {
  R.skipToByte();
  uint32_t Length = R.take(16), Complement = R.take(16);
  if (R.Overrun || Length != (~Complement & 0xffff) || Length > O.Size - O.Written)
    return false;
  for (; Length; Length--) {
    O.Out[O.Written++] = uint8_t(R.take(8));
    if (R.Overrun)
      return false;
  }
  return true;
}

bool inflateFixed(BitReader &R, Output &O) {
  uint8_t Lengths[LiteralLengthSymbols];
  unsigned S = 0;
  for (; S < 144; S++)
    Lengths[S] = 8;
  for (; S < 256; S++)
    Lengths[S] = 9;
  for (; S < 280; S++)
    Lengths[S] = 7;
  for (; S < LiteralLengthSymbols; S++)
    Lengths[S] = 8;
  HuffmanCode Literals, Distances;
  buildCode(Literals, Lengths, LiteralLengthSymbols);
  for (S = 0; S < DistanceSymbols; S++)
    Lengths[S] = 5;
  buildCode(Distances, Lengths, DistanceSymbols);
  return inflateCodes(R, O, Literals, Distances);
}

// RFC 1951, 3.2.7: the block's two codes, themselves sent as code lengths
// coded with a third code.
bool inflateDynamic(BitReader &R, Output &O) {
  unsigned LiteralCount = R.take(5) + 257;
  unsigned DistanceCount = R.take(5) + 1;
  unsigned LengthCodeCount = R.take(4) + 4;
  if (R.Overrun || LiteralCount > 286 || DistanceCount > DistanceSymbols)
    return false;
  static constexpr uint8_t LengthCodeOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                  11, 4,  12, 3, 13, 2, 14, 1, 15};
  uint8_t Lengths[286 + DistanceSymbols] = {};
  for (unsigned I = 0; I < LengthCodeCount; I++)
    Lengths[LengthCodeOrder[I]] = uint8_t(R.take(3));
  HuffmanCode LengthCode;
  if (R.Overrun || !buildCode(LengthCode, Lengths, 19))
    return false;
  unsigned Total = LiteralCount + DistanceCount;
  for (unsigned I = 0; I < 19; I++)
    Lengths[I] = 0;
  for (unsigned I = 0; I < Total;) {
    int Symbol = decodeSymbol(R, LengthCode);
    if (Symbol < 0)
      return false;
    if (Symbol < 16) {
      Lengths[I++] = uint8_t(Symbol);
      continue;
    }
    uint8_t Repeated = 0;
    unsigned Times;
    if (Symbol == 16) {
      if (I == 0)
        return false;
      Repeated = Lengths[I - 1];
      Times = 3 + R.take(2);
    } else if (Symbol == 17) {
      Times = 3 + R.take(3);
    } else {
      Times = 11 + R.take(7);
    }
    if (R.Overrun || Times > Total - I)
      return false;
    for (; Times; Times--)
      Lengths[I++] = Repeated;
  }
  if (Lengths[256] == 0) // a block must be able to end
    return false;
  HuffmanCode Literals, Distances;
  return buildCode(Literals, Lengths, LiteralCount) &&
         buildCode(Distances, Lengths + LiteralCount, DistanceCount) &&
         inflateCodes(R, O, Literals, Distances);
}

uint32_t adler32(const uint8_t *Data, size_t Size) {
  constexpr uint32_t Modulus = 65521;
  uint32_t A = 1, B = 0;
  while (Size) {
    // 5552 bytes is the most that cannot overflow B before the modulus.
    size_t Run = Size < 5552 ? Size : 5552;
    Size -= Run;
    for (; Run; Run--) {
      A += *Data++;
      B += A;
    }
    A %= Modulus;
    B %= Modulus;
  }
  return B << 16 | A;
}

} // namespace

bool inflateZlib(const uint8_t *In, size_t InSize, uint8_t *Out, size_t OutSize) {
  // RFC 1950: method 8 (deflate) with a window of at most 32 KiB, no
  // preset dictionary, and a header check that makes it a multiple of 31.
  if (InSize < 6)
    return false;
  unsigned Method = In[0], Flags = In[1];
  if ((Method & 0xf) != 8 || (Method >> 4) > 7 || (Method << 8 | Flags) % 31 || (Flags & 0x20))
    return false;
  BitReader R{In + 2, InSize - 6};
  Output O{Out, OutSize};
  bool Last;
  do {
    Last = R.take(1);
    unsigned Type = R.take(2);
    bool Ok = Type == 0   ? inflateStored(R, O)
              : Type == 1 ? inflateFixed(R, O)
              : Type == 2 ? inflateDynamic(R, O)
                          : false;
    if (!Ok || R.Overrun)
      return false;
  } while (!Last);
  // The stream must end where the checksum starts (no whole byte fetched
  // and left), with the image whole.
  if (R.Next - R.Count / 8 != R.Size || O.Written != OutSize)
    return false;
  const uint8_t *Sum = In + InSize - 4;
  uint32_t Expected = uint32_t(Sum[0]) << 24 | uint32_t(Sum[1]) << 16 | uint32_t(Sum[2]) << 8 | Sum[3];
  return adler32(Out, OutSize) == Expected;
}

} // namespace popcorn
