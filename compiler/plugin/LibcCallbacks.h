//===- LibcCallbacks.h - Where musl calls back into the program -*- C++ -*-===//
//
// One list for both sides of a call from musl 1.2.3 back into the program
// (docs/architecture.md): the public functions whose calls can lead back
// (the program's calls to them keep their records, LibcFunctions.cpp) and
// the functions of libc on those paths, by source file (which get records,
// PopcornLibcRecordsPlugin.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_PLUGIN_LIBCCALLBACKS_H
#define POPCORN_PLUGIN_LIBCCALLBACKS_H

#include <initializer_list>

namespace popcorn {

// Public functions that call a function pointer of the program, now or later
// (exit runs atexit handlers, pthread_exit destructors).
inline const char *const LibcFunctionsCallingBack[] = {
    "qsort", "qsort_r", "bsearch", "tsearch", "tfind", "tdelete", "twalk", "tdestroy",
    "lsearch", "lfind", "nftw", "ftw", "scandir", "exit", "quick_exit", "pthread_exit",
    "thrd_exit", "pthread_once", "call_once",
};

// libc's functions on the way from those entry points to the callback, by
// source file (relative to src/).  The bases of threads
// (libc_start_main_stage2 -> constructors, main, exit; pthread's start ->
// start routine) are the last frame of every walk: a rewrite lays them out
// on the destination like any other frame.
struct LibcCallbackPath {
  const char *File;
  std::initializer_list<const char *> Functions;
};
inline const LibcCallbackPath LibcCallbackPaths[] = {
    {"env/__libc_start_main.c", {"libc_start_main_stage2", "libc_start_init"}},
    {"exit/exit.c", {"exit", "libc_exit_fini"}},      // destructors
    {"exit/atexit.c", {"__funcs_on_exit", "call"}},   // atexit handlers
    {"exit/at_quick_exit.c", {"__funcs_on_quick_exit"}},
    {"exit/quick_exit.c", {"quick_exit"}},
    {"stdlib/qsort.c", {"__qsort_r", "sift", "trinkle"}},
    {"stdlib/qsort_nr.c", {"qsort", "wrapper_cmp"}},
    {"stdlib/bsearch.c", {"bsearch"}},
    {"search/tsearch.c", {"tsearch"}},
    {"search/tfind.c", {"tfind"}},
    {"search/tdelete.c", {"tdelete"}},
    {"search/twalk.c", {"twalk", "walk"}},
    {"search/tdestroy.c", {"tdestroy"}},
    {"search/lsearch.c", {"lsearch", "lfind"}},
    {"misc/nftw.c", {"nftw", "do_nftw"}},
    {"legacy/ftw.c", {"ftw"}},
    {"dirent/scandir.c", {"scandir"}},
    {"thread/pthread_create.c", {"start", "start_c11", "__pthread_exit"}},
    {"thread/pthread_key_create.c", {"__pthread_tsd_run_dtors"}},
    {"thread/pthread_once.c", {"__pthread_once", "__pthread_once_full"}},
    {"thread/call_once.c", {"call_once"}},
    // No callback, but a walk from longjmp (runtime/migration/LongJump.cpp) must
    // cross siglongjmp's frame: its call to longjmp gets a record.
    {"signal/siglongjmp.c", {"siglongjmp", "longjmp", "_longjmp"}},
    // A handler on the alternate signal stack runs under sigaction.c's
    // wrapper, whose frame a walk from the handler crosses to reach the
    // kernel's signal frame.
    {"signal/sigaction.c", {"program_handler", "call_program_handler"}},
};

// Functions whose only callback is one of their arguments, with musl's
// symbols that implement them.  libc.a also holds a copy of them compiled as
// a stock libc is, without call-site records, each symbol renamed with
// PlainLibcPrefix (libc-patches/build-musl.sh, which lists the same
// symbols); popcorn-plugin calls the copy when the callback is bounded
// (PlainLibcCalls.cpp).
struct PlainLibcFunction {
  const char *Name;
  unsigned CallbackArgument;
};
inline const PlainLibcFunction PlainLibcFunctions[] = {
    {"qsort", 3}, {"qsort_r", 3}, {"bsearch", 4}};
inline constexpr const char *PlainLibcPrefix = "__popcorn_plain_";

} // namespace popcorn

#endif
