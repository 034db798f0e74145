//===- ProcessMaps.h - This process's mappings, from /proc/self/maps -*- C++ -*-===//
//
// Read with raw system calls: home reads them while it serves a page, and
// a node before anything of libc's is set up.  Character by character:
// only a line's first three fields matter, and a path can be longer than
// any buffer.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_PROCESSMAPS_H
#define POPCORN_RUNTIME_PROCESSMAPS_H

#include "support/Syscall.h"

namespace popcorn {

enum : uint32_t { MappingReadable = 1, MappingWritable = 2, MappingShared = 4 };

/// Calls Visit(Low, High, Access) for each mapping of this process, in
/// address order (Access: Mapping* bits); false if the maps could not be
/// read.
template <class Visitor> bool forEachMapping(Visitor Visit) {
  long Fd = sys::openForReading("/proc/self/maps");
  if (sys::failed(Fd))
    return false;
  enum { Low, High, Perms, Rest } Field = Low;
  uint64_t Bounds[2] = {0, 0};
  char Access[4] = {};
  unsigned AccessAt = 0;
  char Buffer[2048];
  long Got;
  while ((Got = sys::call6(sys::Read, Fd, long(Buffer), sizeof Buffer)) > 0)
    for (long I = 0; I < Got; I++) {
      char C = Buffer[I];
      if (C == '\n') {
        if (Field == Rest)
          Visit(Bounds[0], Bounds[1],
                uint32_t((Access[0] == 'r' ? MappingReadable : 0) |
                         (Access[1] == 'w' ? MappingWritable : 0) |
                         (Access[3] == 's' ? MappingShared : 0)));
        Field = Low;
        Bounds[0] = Bounds[1] = 0;
        Access[0] = Access[1] = Access[2] = Access[3] = 0;
        AccessAt = 0;
        continue;
      }
      if (Field == Low && C == '-') {
        Field = High;
      } else if (Field == Low || Field == High) {
        if (C == ' ') {
          Field = Perms;
          continue;
        }
        uint64_t Digit = C >= 'a' ? uint64_t(C - 'a' + 10) : uint64_t(C - '0');
        Bounds[Field] = Bounds[Field] * 16 + Digit;
      } else if (Field == Perms) {
        if (C == ' ')
          Field = Rest;
        else if (AccessAt < 4)
          Access[AccessAt++] = C;
      }
    }
  sys::call6(sys::Close, Fd);
  return Got == 0;
}

} // namespace popcorn

#endif
