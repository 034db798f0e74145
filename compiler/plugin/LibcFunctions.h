//===- LibcFunctions.h - libc calls that never lead back ------*- C++ -*-===//
#ifndef POPCORN_PLUGIN_LIBCFUNCTIONS_H
#define POPCORN_PLUGIN_LIBCFUNCTIONS_H

namespace llvm {
class Function;
} // namespace llvm

namespace popcorn {

/// Is F a libc function that cannot lead back into the program (memcpy,
/// printf, malloc: everything but qsort, exit and the like)?  A thread is
/// never at a migration point below such a call, so the call needs no
/// call-site record, and gets none: no deopt values to keep in place.
///
/// libc's functions are listed in the file -popcorn-libc-functions names
/// (popcorn-clang passes the one built with musl); without it every call is
/// recorded.  A program's own definition in the module always counts as the
/// program's.
bool neverCallsBack(const llvm::Function &F);

} // namespace popcorn

#endif
