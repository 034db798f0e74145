//===- KeyFile.cpp - The user's key for nodes started by hand -------------===//
#include "KeyFile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace popcorn {

bool keyFilePath(char *Out, size_t Size) {
  if (const char *Path = getenv("POPCORN_KEY_FILE"))
    return size_t(snprintf(Out, Size, "%s", Path)) < Size;
  const char *Home = getenv("HOME");
  return Home && size_t(snprintf(Out, Size, "%s/.config/popcorn/node.key", Home)) < Size;
}

static int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

bool readKeyFile(const char *Path, LinkKey &Key, char *Why, size_t WhySize) {
  int Fd = open(Path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (Fd < 0) {
    snprintf(Why, WhySize, "cannot open key file %s: %s", Path, strerror(errno));
    return false;
  }
  struct stat St;
  char Text[130];
  ssize_t Got = fstat(Fd, &St) ? -1 : read(Fd, Text, sizeof Text - 1);
  close(Fd);
  // A key others can read is a key others hold.
  if (Got >= 0 && (St.st_uid != getuid() || (St.st_mode & 077))) {
    snprintf(Why, WhySize, "key file %s must belong to you and be private (chmod 600)", Path);
    return false;
  }
  if (Got < 64) {
    snprintf(Why, WhySize, "key file %s holds no key (64 hexadecimal digits)", Path);
    return false;
  }
  for (int I = 0; I < 32; I++) {
    int High = hexDigit(Text[2 * I]), Low = hexDigit(Text[2 * I + 1]);
    if (High < 0 || Low < 0) {
      snprintf(Why, WhySize, "key file %s: not 64 hexadecimal digits", Path);
      return false;
    }
    Key.Bytes[I] = uint8_t(High << 4 | Low);
  }
  for (ssize_t I = 64; I < Got; I++)
    if (Text[I] != '\n' && Text[I] != ' ') {
      snprintf(Why, WhySize, "key file %s: not 64 hexadecimal digits", Path);
      return false;
    }
  return true;
}

bool writeNewKeyFile(const char *Path, char *Why, size_t WhySize) {
  char Directory[4096];
  snprintf(Directory, sizeof Directory, "%s", Path);
  // Each missing directory of the path, private to the user.
  for (char *Slash = strchr(Directory + 1, '/'); Slash; Slash = strchr(Slash + 1, '/')) {
    *Slash = 0;
    if (mkdir(Directory, 0700) && errno != EEXIST) {
      snprintf(Why, WhySize, "cannot create %s: %s", Directory, strerror(errno));
      return false;
    }
    *Slash = '/';
  }
  LinkKey Key;
  char Text[66];
  if (!randomBytes(Key.Bytes, sizeof Key.Bytes)) {
    snprintf(Why, WhySize, "no random bytes from the kernel");
    return false;
  }
  for (int I = 0; I < 32; I++)
    snprintf(Text + 2 * I, 3, "%02x", Key.Bytes[I]);
  Text[64] = '\n';
  int Fd = open(Path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (Fd < 0 || write(Fd, Text, 65) != 65 || close(Fd)) {
    snprintf(Why, WhySize, "cannot write key file %s: %s", Path, strerror(errno));
    return false;
  }
  return true;
}

} // namespace popcorn
