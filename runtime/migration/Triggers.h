//===- Triggers.h - When a thread moves without asking ----------*- C++ -*-===//
//
// Migration without code changes.  POPCORN_MIGRATE holds a schedule
// (ScheduleSettings.h) of one trigger:
//   every=N          every N-th migration point of the thread
//   random=P         each point with probability P (seed=S, default 1)
//   after=DURATION   once, DURATION (ns, us, ms or s) after the start
//   period=DURATION  every DURATION: away (the cycle's next node) at one
//                    tick, home at the next
//   at=FUNCTION      once, when the thread enters FUNCTION
// and nodes=A,B,..., the cycle of destinations (default: the first node
// but home, then home).  Each thread follows the schedule on its own:
// every= counts its points, random= draws from a stream of its own (from
// the seed and the thread's place in the order of creation, the main
// thread first), and it goes round the cycle from its start; threads=main
// keeps the other threads where they are.  Popcorn's own triggers work as in Popcorn:
// X86_64_MIGRATE_START/END and AARCH64_MIGRATE_START/END (hexadecimal
// code ranges: a point inside moves the thread once to the other ISA),
// and SIGRTMIN sent to the home process (the thread moves to the next
// node of the cycle at its next point at home).  SIGRTMIN is musl's 35
// and glibc's 34, which shells send for `kill -RTMIN`: both ask.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_TRIGGERS_H
#define POPCORN_RUNTIME_TRIGGERS_H

#include "RegisterSet.h"
#include "state/ScheduleSettings.h"

namespace popcorn {

/// Reads the triggers from the environment, at home before main; ends the
/// process with a message if they are malformed.  True if a trigger needs
/// the runtime at every migration point.
bool readTriggers();

/// At a migration point: the node the thread is to move to now, or -1.
int triggeredDestination(const RegisterSet &Registers);

/// POPCORN_MIGRATE, read at home before main; ends the process with a
/// message if it is malformed.
void readSchedule(ScheduleSettings &Out);

/// The destination SIGRTMIN asked for, or -1; taking it clears it.
int takeSignalledDestination();

/// Whether any trigger is set (POPCORN_MIGRATE or a code range).
bool triggersSet();

/// Home, in pthread_create before Thread (its struct pthread) runs: it
/// gets its course through the schedule, and its number.
void numberThread(void *Thread);

/// Home, as a thread ends: its course through the schedule is freed.
void forgetThreadCourse();

} // namespace popcorn

#endif
