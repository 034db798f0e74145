//===- RetainedPages.h - Pages a node keeps between trips -------*- C++ -*-===//
//
// A remote node keeps the pages it fetched or wrote when the thread leaves
// it, so the next trip there does not fetch them again.  Home decides which
// are still right: it remembers, per node, each page the node holds, and
// before the thread goes back there names in a Forget message each one
// whose content changed since (home wrote it, another node's writes came
// back, a mapping call unmapped, replaced, protected or discarded it).
//
// Which ones home wrote, the kernel tells once a node holds many pages
// (WrittenPages.h): those written since the thread last came home, when
// the other nodes learn of them, or since it left for this node.  Before
// that, home keeps a hash of each page's content as the node has it and
// hashes its own copy at every departure: about the cost of copying the
// page in memory, where fetching it again costs a round trip.  A node
// that holds more pages than are worth hashing at every departure, with
// no help from the kernel, forgets them all (RetainedPages.cpp:
// MaxHashed), and so does a node whose pages' access may have changed
// (PageAccess.h).
//
// (The kernel's soft-dirty bits would say which pages home wrote without
// write protection, but kernels without CONFIG_MEM_SOFT_DIRTY, this
// machine's among them, report none.)
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_RETAINEDPAGES_H
#define POPCORN_RUNTIME_RETAINEDPAGES_H

#include "link/Channel.h"

namespace popcorn {

/// Home: node Node now holds the page at Address with these bytes (served
/// to it, or written by it and returned).
void notePageHeld(int Node, uint64_t Address, const uint8_t *Bytes);

/// Home: no node holds any page (a forked child's nodes are its own).
void forgetAllHeld();

/// Home: node Node holds no page (it ended, and starts again empty).
void forgetHeld(int Node);

/// Home: a mapping call unmapped, replaced, moved or protected
/// [Address, +Bytes): every node's copies there are stale.
void notePagesChanged(uint64_t Address, uint64_t Bytes);

/// Home: the thread came back from node From, with the pages it wrote
/// there: what home wrote since it last came home is stale on every other
/// node, and from now on only new writes count.
void noteThreadHome(int From);

/// Home: node Node got a page that the program may not write.
void noteReadOnlyHeld(int Node);

/// Home: tells Node, before the thread goes there, which pages it holds
/// are no longer home's content (Forget messages); false if the link broke.
bool forgetChangedPages(int Node, Channel &Link);

/// The hash that tells a page's contents apart.
uint64_t hashPage(const uint8_t *Bytes);

} // namespace popcorn

#endif
