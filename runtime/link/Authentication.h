//===- Authentication.h - Both ends of a link hold the same key -*- C++ -*-===//
//
// Every link between nodes starts with a mutual challenge: the node side
// sends a random nonce, home answers with its own nonce and an HMAC of
// both under the key, and the node proves it holds the key too.  Nothing
// else is read from a link before it is authenticated, so a stranger who
// connects to popcorn-node can neither run code there nor pose as a node
// and read the program's memory.
//
// The key: for a node home starts itself, a random secret of the home
// process handed to the node through a pipe (not its command line or
// environment, which other users' ps may show); for a node started by
// hand (popcorn-node), the user's key file.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_AUTHENTICATION_H
#define POPCORN_RUNTIME_AUTHENTICATION_H

#include "link/Channel.h"
#include "link/Sha256.h"

namespace popcorn {

struct LinkKey {
  uint8_t Bytes[32];
};

/// Fills Out with random bytes from the kernel; false if it has none.
bool randomBytes(void *Out, uint64_t Bytes);

enum class AuthResult {
  Accepted,
  Refused, // the peer does not hold the key
  Lost,    // the peer went away, was silent or sent something else
};

/// The node's side: challenges home, then proves itself.
AuthResult authenticateHome(Channel &Link, const LinkKey &Key);

/// Home's side: answers the node's challenge and checks its proof.
AuthResult authenticateNode(Channel &Link, const LinkKey &Key);

} // namespace popcorn

#endif
