//===- Authentication.cpp - Both ends of a link hold the same key ---------===//
#include "link/Authentication.h"
#include "support/Syscall.h"

namespace popcorn {
namespace {

// Each side's MAC covers who speaks and both nonces in the order it sees
// them, so a proof is never the replay of a response.
void mac(const LinkKey &Key, const char *Speaker, const uint8_t *First, const uint8_t *Second,
         uint8_t Out[DigestBytes]) {
  Bytes Parts[3] = {{Speaker, 4}, {First, NonceBytes}, {Second, NonceBytes}};
  hmacSha256(Key.Bytes, sizeof Key.Bytes, Parts, 3, Out);
}

// Equal without a timing hint of where they differ.
bool sameMac(const uint8_t *A, const uint8_t *B) {
  uint8_t Difference = 0;
  for (unsigned I = 0; I < DigestBytes; I++)
    Difference |= A[I] ^ B[I];
  return Difference == 0;
}

} // namespace

bool randomBytes(void *Out, uint64_t Bytes) {
  return sys::everyByte(Out, Bytes, [](long At, uint64_t Left) {
    return sys::call6(sys::Getrandom, At, long(Left), 0);
  });
}

AuthResult authenticateHome(Channel &Link, const LinkKey &Key) {
  AuthChallengeMessage Challenge;
  AuthResponseMessage Response;
  if (!randomBytes(Challenge.Nonce, NonceBytes))
    return AuthResult::Lost;
  if (!Link.send(MessageType::AuthChallenge, &Challenge, sizeof Challenge) ||
      !Link.receiveExactly(MessageType::AuthResponse, &Response, sizeof Response))
    return AuthResult::Lost;
  uint8_t Expected[DigestBytes];
  mac(Key, "home", Challenge.Nonce, Response.Nonce, Expected);
  if (!sameMac(Expected, Response.Mac))
    return AuthResult::Refused;
  AuthProofMessage Proof;
  mac(Key, "node", Response.Nonce, Challenge.Nonce, Proof.Mac);
  return Link.send(MessageType::AuthProof, &Proof, sizeof Proof) ? AuthResult::Accepted
                                                                   : AuthResult::Lost;
}

AuthResult authenticateNode(Channel &Link, const LinkKey &Key) {
  AuthChallengeMessage Challenge;
  AuthResponseMessage Response;
  AuthProofMessage Proof;
  if (!Link.receiveExactly(MessageType::AuthChallenge, &Challenge, sizeof Challenge) ||
      !randomBytes(Response.Nonce, NonceBytes))
    return AuthResult::Lost;
  mac(Key, "home", Challenge.Nonce, Response.Nonce, Response.Mac);
  if (!Link.send(MessageType::AuthResponse, &Response, sizeof Response))
    return AuthResult::Lost;
  // A node that does not hold the key closes the link instead of proving.
  MessageHeader Header;
  if (!Link.receiveHeader(Header, Link.dueWaitMs()))
    return Link.TimedOut ? AuthResult::Lost : AuthResult::Refused;
  if (Header.Type != MessageType::AuthProof || Header.Bytes != sizeof Proof ||
      !Link.receivePayload(&Proof, sizeof Proof))
    return AuthResult::Lost;
  uint8_t Expected[DigestBytes];
  mac(Key, "node", Response.Nonce, Challenge.Nonce, Expected);
  return sameMac(Expected, Proof.Mac) ? AuthResult::Accepted : AuthResult::Refused;
}

} // namespace popcorn
