//===- KeyFile.h - The user's key for nodes started by hand -----*- C++ -*-===//
//
// A node started by hand (popcorn-node) and the programs that use it
// prove to each other that they hold the same key (Authentication.h): 32
// random bytes, written as 64 hexadecimal digits in a file only its owner
// may read.  POPCORN_KEY_FILE names it; by default
// $HOME/.config/popcorn/node.key.  Copy it to every machine of yours that
// runs nodes.
//
// Uses libc: read by home, which has one, and by popcorn-node.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_KEYFILE_H
#define POPCORN_RUNTIME_KEYFILE_H

#include "link/Authentication.h"
#include <stddef.h>

namespace popcorn {

/// The key file's path, from the environment; false if neither
/// POPCORN_KEY_FILE nor HOME is set.
bool keyFilePath(char *Out, size_t Size);

/// Reads the key at Path.  False with the reason in Why if the file is
/// missing, readable by others, not the owner's or malformed.
bool readKeyFile(const char *Path, LinkKey &Key, char *Why, size_t WhySize);

/// Creates Path (and its directory) with a new random key, mode 0600;
/// refuses to replace an existing file.
bool writeNewKeyFile(const char *Path, char *Why, size_t WhySize);

} // namespace popcorn

#endif
