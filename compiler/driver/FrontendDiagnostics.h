//===- FrontendDiagnostics.h - clang's refusals in popcorn's words -*- C++ -*-===//
//
// The front end targets aarch64 for every ISA.  Most of what cannot run on
// every ISA reaches popcorn's pass plugin (RejectNonPortable), which names
// it; some never gets that far, because clang itself refuses it first with
// words that point the user the wrong way:
//
//   assembly        the front end runs with -fno-gnu-inline-asm, so every
//                   asm statement and file-scope asm block is an error at
//                   its line ("GNU-style inline assembly is disabled"), and
//                   so are the x86 constraints and registers aarch64 does
//                   not know;
//   x86 builtins    "use of unknown builtin '__builtin_ia32_pause'";
//   host headers    "'zlib.h' file not found", when the header is the build
//                   machine's (/usr/include), not popcorn's.
//
// rewriteFrontendDiagnostics() rewords those in clang's own output, keeping
// file, line, column and the source excerpt.  It also explains an #error
// that code reaches because popcorn-clang defines no ISA's macros (an
// #if/#elif chain over __x86_64__, __aarch64__, ... whose last branch
// stops the compile): a note after the error names the macro tested and
// what to test instead.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_DRIVER_FRONTENDDIAGNOSTICS_H
#define POPCORN_DRIVER_FRONTENDDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace popcorn {

/// Text, what the front end wrote on stderr (clang's text diagnostics,
/// colored or not), with popcorn's message for each construct popcorn
/// refuses, one message only for one line's assembly, and a note after an
/// #error that an ISA's macro led to.
std::string rewriteFrontendDiagnostics(llvm::StringRef Text);

} // namespace popcorn

#endif
