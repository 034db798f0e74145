//===- Triggers.h - When a thread moves without asking ----------*- C++ -*-===//
//
// Migration without code changes.  POPCORN_MIGRATE holds a schedule of
// ';'-separated settings:
//   every=N          every N-th migration point of the thread
//   random=P         each point with probability P (seed=S, default 1)
//   after=DURATION   once, DURATION (ns, us, ms or s) after the start
//   period=DURATION  every DURATION: away (the cycle's next node) at one
//                    tick, home at the next
//   at=FUNCTION      once, when the thread enters FUNCTION
//   nodes=A,B,...    the cycle of destinations (default 1,0)
// Popcorn's own triggers work as in Popcorn: X86_64_MIGRATE_START/END and
// AARCH64_MIGRATE_START/END (hexadecimal code ranges: a point inside moves
// the thread once to the other ISA), and SIGRTMIN sent to the home process
// (the thread moves to the next node of the cycle at its next point at
// home).
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_TRIGGERS_H
#define POPCORN_RUNTIME_TRIGGERS_H

#include "RegisterSet.h"

namespace popcorn {

/// Reads the triggers from the environment, at home before main; ends the
/// process with a message if they are malformed.  True if a trigger needs
/// the runtime at every migration point.
bool readTriggers();

/// At a migration point: the node the thread is to move to now, or -1.
int triggeredDestination(const RegisterSet &Registers);

/// The value of KEY= among ';'-separated Settings, or null.
const char *settingOf(const char *Settings, const char *Key);

/// The destination SIGRTMIN asked for, or -1; taking it clears it.
int takeSignalledDestination();

/// "20ms" and the like (ns, us, ms, s; decimals allowed) in nanoseconds;
/// 0 if malformed.
uint64_t durationOf(const char *Value);

/// Whether any trigger is set (POPCORN_MIGRATE or a code range).
bool triggersSet();

} // namespace popcorn

#endif
