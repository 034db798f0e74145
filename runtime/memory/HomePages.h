//===- HomePages.h - Home serves its pages and takes them back -*- C++ -*-===//
//
// While the thread is away, home answers its node's page requests from
// the program's memory, and takes back the pages the thread wrote there:
// with the thread, or ahead of it (before a call that changes a range's
// protection, or that shows memory shared with other processes to them).
// Each message's header has been read; these read its payload from the
// link.  False if it is malformed: the node is no longer to be trusted.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_MEMORY_HOMEPAGES_H
#define POPCORN_RUNTIME_MEMORY_HOMEPAGES_H

#include "link/Channel.h"

namespace popcorn {

/// Node Id's PageRequest of Bytes bytes: answered with a PageRun or
/// PageMissing.
bool servePages(int Id, Channel &Link, uint32_t Bytes);

/// A message H of pages the thread wrote on node Id, PageData or PageSet;
/// false for any other.  InPlace: received straight into the program's
/// memory (memory/ReadablePages.h: inPlaceThisTrip).
bool takeWrittenBack(int Id, Channel &Link, const MessageHeader &H, bool InPlace);

/// A PageDiff of Bytes bytes: the bytes the thread changed in a page
/// shared with other processes.
bool takeDiffBack(Channel &Link, uint32_t Bytes);

} // namespace popcorn

#endif
