//===- KeyFile.cpp - The user's key for nodes started by hand -------------===//
#include "link/KeyFile.h"
#include "support/Report.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace popcorn {

bool keyFilePath(char *Out, size_t Size) {
  TextBuffer Path(Out, uint32_t(Size));
  if (const char *Given = getenv("POPCORN_KEY_FILE"))
    Path << Given;
  else if (const char *Home = getenv("HOME"))
    Path << Home << "/.config/popcorn/node.key";
  else
    return false;
  return Path.length() + 1 < Size;
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
    TextBuffer(Why, uint32_t(WhySize))
        << "cannot open key file " << Path << ": " << strerror(errno);
    return false;
  }
  struct stat St;
  char Text[130];
  ssize_t Got = fstat(Fd, &St) ? -1 : read(Fd, Text, sizeof Text - 1);
  close(Fd);
  // A key others can read is a key others hold.
  if (Got >= 0 && (St.st_uid != getuid() || (St.st_mode & 077))) {
    TextBuffer(Why, uint32_t(WhySize))
        << "key file " << Path << " must belong to you and be private (chmod 600)";
    return false;
  }
  if (Got < 64) {
    TextBuffer(Why, uint32_t(WhySize))
        << "key file " << Path << " holds no key (64 hexadecimal digits)";
    return false;
  }
  for (int I = 0; I < 32; I++) {
    int High = hexDigit(Text[2 * I]), Low = hexDigit(Text[2 * I + 1]);
    if (High < 0 || Low < 0) {
      TextBuffer(Why, uint32_t(WhySize)) << "key file " << Path << ": not 64 hexadecimal digits";
      return false;
    }
    Key.Bytes[I] = uint8_t(High << 4 | Low);
  }
  for (ssize_t I = 64; I < Got; I++)
    if (Text[I] != '\n' && Text[I] != ' ') {
      TextBuffer(Why, uint32_t(WhySize)) << "key file " << Path << ": not 64 hexadecimal digits";
      return false;
    }
  return true;
}

bool writeNewKeyFile(const char *Path, char *Why, size_t WhySize) {
  char Directory[4096];
  TextBuffer(Directory, sizeof Directory) << Path;
  // Each missing directory of the path, private to the user.
  for (char *Slash = strchr(Directory + 1, '/'); Slash; Slash = strchr(Slash + 1, '/')) {
    *Slash = 0;
    if (mkdir(Directory, 0700) && errno != EEXIST) {
      TextBuffer(Why, uint32_t(WhySize))
          << "cannot create " << Directory << ": " << strerror(errno);
      return false;
    }
    *Slash = '/';
  }
  LinkKey Key;
  char Text[66];
  if (!randomBytes(Key.Bytes, sizeof Key.Bytes)) {
    TextBuffer(Why, uint32_t(WhySize)) << "no random bytes from the kernel";
    return false;
  }
  for (int I = 0; I < 32; I++) {
    Text[2 * I] = "0123456789abcdef"[Key.Bytes[I] >> 4];
    Text[2 * I + 1] = "0123456789abcdef"[Key.Bytes[I] & 15];
  }
  Text[64] = '\n';
  int Fd = open(Path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (Fd < 0 || write(Fd, Text, 65) != 65 || close(Fd)) {
    TextBuffer(Why, uint32_t(WhySize))
        << "cannot write key file " << Path << ": " << strerror(errno);
    return false;
  }
  return true;
}

} // namespace popcorn
