//===- Sha256.h - SHA-256 and HMAC-SHA-256 ---------------------*- C++ -*-===//
//
// What node connections are authenticated with (Authentication.h).  Ours,
// from FIPS 180-4 and RFC 2104: the runtime is freestanding, and a remote
// node has no libc to borrow a digest from.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SHA256_H
#define POPCORN_RUNTIME_SHA256_H

#include <stddef.h>
#include <stdint.h>

namespace popcorn {

inline constexpr size_t DigestBytes = 32;

class Sha256 {
public:
  Sha256();
  void update(const void *Data, size_t Bytes);
  void finish(uint8_t Digest[DigestBytes]);

private:
  void compress(const uint8_t Block[64]);
  uint32_t State[8];
  uint8_t Pending[64];
  uint64_t Length = 0; // bytes so far
};

/// One part of a message to authenticate.
struct Bytes {
  const void *Data;
  size_t Size;
};

/// HMAC-SHA-256 under Key of the concatenation of Parts.
void hmacSha256(const uint8_t *Key, size_t KeyBytes, const Bytes *Parts, size_t PartCount,
                uint8_t Mac[DigestBytes]);

} // namespace popcorn

#endif
