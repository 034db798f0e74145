//===- MigrationMetadata.h - The metadata, inflated on first use -*- C++ -*-===//
//
// popcorn-ld stores the migration metadata compressed (popcorn/Metadata.h):
// SQLite's shell's 1.67 MB take 430 KB of the file.  Nothing needs it
// before a thread first moves, or a trigger or a long jump first reads it,
// so a program that never moves never inflates it, and its start pays
// nothing.  Every reader of the metadata gets it here.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_MIGRATIONMETADATA_H
#define POPCORN_RUNTIME_MIGRATIONMETADATA_H

#include "popcorn/Metadata.h"

namespace popcorn {

/// The migration metadata, inflated from section .popcorn.metadata at the
/// first call in this process, into memory of its own; null if the section
/// is damaged (said once, on one line).  Any thread may call it: the first
/// inflates, the others wait for it.
const popcorn_metadata *migrationMetadata();

} // namespace popcorn

#endif
