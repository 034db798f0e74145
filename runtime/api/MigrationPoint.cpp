//===- MigrationPoint.cpp - What happens when a thread takes a migration point ===//
//
// Every migratable function tests __popcorn_migration_pending at entry and
// before returning (compiler/plugin/InsertMigrationPoints.cpp); when it is
// set the function calls __popcorn_migration_point (migration/arch/*.S), which saves
// every register and calls popcorn_migration_point_slow here.
//
// Modes, chosen by the environment:
//   POPCORN_CHECK_UNWIND=1|verbose  every point walks the whole stack with
//       the migration metadata alone; any failure aborts with a report.
//   POPCORN_MIGRATE=... and Popcorn's trigger variables: the thread moves
//       when a trigger fires (Triggers.h), to a node (HomeNode.h).
//   POPCORN_SELFTEST=same|roundtrip (with POPCORN_MIGRATE='every=N') every
//       N-th point of a thread rewrites its stack in this process and
//       continues on the result: `same` into the thread's other stack
//       region for this ISA; `roundtrip` through the other ISA's layout and
//       back.  A refused rewrite stays pending until a later point.  At exit
//       one line on stderr says how many rewrites were resumed.
//
//===----------------------------------------------------------------------===//
#include "FrameCursor.h"
#include "migration/Thread.h"
#include "migration/Triggers.h"
#include "nodes/HomeNode.h"
#include "nodes/RemoteNode.h"
#include "Rewrite.h"
#include "state/MigrationMetadata.h"
#include "state/NodeState.h"
#include "state/Settings.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include <errno.h>
#include <popcorn.h>
#include <stdlib.h>
#include <string.h>

using namespace popcorn;

extern "C" {
int __popcorn_migration_pending;
void popcorn_migration_point_slow(RegisterSet *Registers);
}

namespace {
enum class Mode { Off, CheckUnwind, SameIsa, RoundTrip, Migrate };

// In the program's data: the thread finds them on whichever node it is.
struct Settings {
  Mode Run = Mode::Off;
  bool Verbose = false;
  uint64_t Every = 1;
} Config;

struct Counters {
  uint64_t Walks, Rewrites, Refused, Deepest;
} Stats;

void noteDepth(uint64_t Frames) {
  uint64_t Seen = __atomic_load_n(&Stats.Deepest, __ATOMIC_RELAXED);
  while (Frames > Seen &&
         !__atomic_compare_exchange_n(&Stats.Deepest, &Seen, Frames, true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
}

const char *modeName(Mode M) { return M == Mode::SameIsa ? "same" : "roundtrip"; }

[[noreturn]] void unwindFailed(const char *Why, uint64_t Pc, unsigned Depth) {
  {
    Line L;
    L << "popcorn: POPCORN_CHECK_UNWIND: " << Why << " at return address ";
    L.hex(Pc) << " (frame " << uint64_t(Depth) << " from the migration point)";
  }
  abort();
}

// POPCORN_CHECK_UNWIND: walk from the migration point to the thread's base,
// or to a signal frame: a handler's frames are walked up to the kernel's
// frame, whose return address is musl's __restore_rt.  No migration crosses
// a signal frame (the stack rewrite refuses it), so the walk ends there.
void checkStack(RegisterSet &Registers) {
  IsaTables Tables(migrationMetadata(), uint16_t(Registers.Machine));
  if (!Tables.valid())
    unwindFailed("the program has no migration metadata for this ISA", Registers.Pc, 0);
  FrameCursor Cursor(Tables, Registers);
  for (unsigned Depth = 0;; Depth++) {
    switch (Cursor.step()) {
    case StepResult::Caller:
      continue;
    case StepResult::Base:
      __atomic_add_fetch(&Stats.Walks, 1, __ATOMIC_RELAXED);
      noteDepth(Depth + 1);
      return;
    case StepResult::NotACallSite:
      if (Cursor.pc() == signalReturnAddress()) {
        __atomic_add_fetch(&Stats.Walks, 1, __ATOMIC_RELAXED);
        noteDepth(Depth + 1);
        return;
      }
      unwindFailed("not a recorded call site", Cursor.pc(), Depth);
    case StepResult::UnknownRule:
      unwindFailed("a frame popcorn cannot follow", Cursor.pc(), Depth);
    }
  }
}

struct SelfTestJob {
  RegisterSet *Registers;
  ThreadState *Thread;
};

// On the runtime's stack: the thread's native stack may be overwritten.
void runSelfTest(void *Arg) {
  auto &Job = *static_cast<SelfTestJob *>(Arg);
  ThreadState &T = *Job.Thread;
  RegisterSet &Source = *Job.Registers;
  uint16_t Here = uint16_t(Source.Machine);
  uint16_t There = Here == EmX86_64 ? EmAArch64 : EmX86_64;
  if (!T.RegionsReady && !setUpStackRegions(T, migrationMetadata(), Source))
    return;

  RewriteRequest Request{migrationMetadata(), &Source, Here, Source.ThreadPointer,
                         T.Regions[1 - T.Current], T.Scratch, T.MaxFrames};
  Request.SignalReturn = signalReturnAddress();
  RewriteResult Result;
  RegisterSet Middle, Out;
  SetjmpFrames Setjmps = T.Setjmps; // the thread's only if it resumes
  int Landing = 1 - T.Current;
  if (Config.Run == Mode::SameIsa) {
    Result = rewriteStack(Request, Out);
    if (Result.Error == RewriteError::None)
      moveSetjmpFrames(Setjmps, Request, Result.Frames);
  } else {
    // Through the other ISA's layout in the other region, then back into
    // this one: every value crosses both ISAs' records.
    Request.DestinationMachine = There;
    Request.DestinationThreadPointer = threadPointerFor(There, Source);
    Result = rewriteStack(Request, Middle);
    if (Result.Error == RewriteError::None) {
      moveSetjmpFrames(Setjmps, Request, Result.Frames);
      RewriteRequest Back{migrationMetadata(), &Middle, Here, Source.ThreadPointer,
                          T.Regions[T.Current], T.Scratch, T.MaxFrames};
      Back.SignalReturn = Request.SignalReturn;
      Result = rewriteStack(Back, Out);
      if (Result.Error == RewriteError::None)
        moveSetjmpFrames(Setjmps, Back, Result.Frames);
      Landing = T.Current;
    }
  }
  if (Result.Error != RewriteError::None) {
    __atomic_add_fetch(&Stats.Refused, 1, __ATOMIC_RELAXED);
    if (Config.Verbose) {
      Line L;
      L << "popcorn: rewrite refused, stays pending: " << describe(Result.Error) << " (frame "
        << uint64_t(Result.Frames) << ", pc ";
      L.hex(Result.Pc) << ")";
    }
    return;
  }
  T.Current = Landing;
  T.Setjmps = Setjmps;
  T.Pending = false;
  __atomic_add_fetch(&Stats.Rewrites, 1, __ATOMIC_RELAXED);
  noteDepth(Result.Frames);
  popcorn_resume(&Out);
}

void report() {
  if (Config.Run == Mode::CheckUnwind) {
    if (Config.Verbose)
      Line() << "popcorn: POPCORN_CHECK_UNWIND: " << Stats.Walks << " stack walks, deepest "
             << Stats.Deepest << " frames, all ended at the thread's base";
    return;
  }
  Line L;
  L << "popcorn: selftest " << modeName(Config.Run) << ": " << Stats.Rewrites
    << " rewrites, deepest " << Stats.Deepest << " frames";
  if (Stats.Refused)
    L << ", " << Stats.Refused << " refused";
}

// POPCORN_SELFTEST's period: POPCORN_MIGRATE's every=, the one setting
// it takes (default 1).
uint64_t selfTestEvery() {
  ScheduleSettings S;
  readSchedule(S);
  if (S.RandomBelow || S.AfterNs || S.PeriodNs || *S.At || S.CycleLength) {
    Line() << "popcorn: POPCORN_SELFTEST: POPCORN_MIGRATE may set every=N only (how often the"
              " stack is rewritten), not '"
           << setting(Setting::Migrate) << "'";
    sys::exitGroup(2);
  }
  return S.Every ? S.Every : 1;
}

// The check takes every migration point, in place of a schedule or the
// self-test: asked for together, the others would silently not run.
void refuseBesideCheck(Setting Other) {
  const char *Value = setting(Other);
  if (!Value || !*Value)
    return;
  Line() << "popcorn: POPCORN_CHECK_UNWIND: runs alone, and " << settingName(Other)
         << " is set ('" << Value << "'); unset one of them";
  sys::exitGroup(2);
}

// The last of exit's handlers and destructors: a schedule may move the
// thread in the program's own, after an atexit handler of the runtime's
// would have reported (a second report followed, from the node where exit
// ended).
__attribute__((destructor(POPCORN_BEFORE_STATIC_OBJECTS))) void reportAtHome() {
  if (node().ReportAtExit && !node().Remote)
    reportMigrations();
}

__attribute__((constructor(POPCORN_BEFORE_STATIC_OBJECTS))) void readSettings() {
  const char *Log = setting(Setting::Log);
  if (Log && !strcmp(Log, "stats")) {
    node().ReportAtExit = true;
  }
  const char *Check = setting(Setting::CheckUnwind);
  const char *SelfTest = setting(Setting::SelfTest);
  if (Check && (!strcmp(Check, "1") || !strcmp(Check, "verbose"))) {
    Config.Run = Mode::CheckUnwind;
    Config.Verbose = !strcmp(Check, "verbose");
    refuseBesideCheck(Setting::Migrate);
    refuseBesideCheck(Setting::SelfTest);
  } else if (SelfTest && (!strcmp(SelfTest, "same") || !strcmp(SelfTest, "roundtrip"))) {
    Config.Run = !strcmp(SelfTest, "same") ? Mode::SameIsa : Mode::RoundTrip;
    Config.Every = selfTestEvery();
    Config.Verbose = Log && !strcmp(Log, "verbose");
  } else {
    Config.Run = Mode::Migrate; // other values were refused at start (StartNodes.cpp)
    Config.Verbose = Log && !strcmp(Log, "verbose");
    if (readTriggers())
      __popcorn_migration_pending = 1;
    return;
  }
  __popcorn_migration_pending = 1;
  atexit(report);
}
} // namespace

namespace {
struct MigrationJob {
  RegisterSet *Registers;
  int Target;
  bool Asked; // by popcorn_migrate
  int Error;
};

// On the runtime's stack: returns only if the thread stays.
void runMigration(void *Arg) {
  auto &Job = *static_cast<MigrationJob *>(Arg);
  if (node().Remote)
    Job.Error = returnHome(*Job.Registers, Job.Target, Job.Asked) == RewriteError::None ? 0 : EAGAIN;
  else
    Job.Error = migrateAway(*Job.Registers, Job.Target);
}

// The Itanium C++ ABI's per-thread exception state, from libc++abi when
// the program throws (a weak reference: a C program has none).
struct CxaEhGlobals {
  void *CaughtExceptions;
  unsigned UncaughtExceptions;
};
extern "C" __attribute__((weak)) CxaEhGlobals *__cxa_get_globals_fast();

// Whether an exception is on its way to its handler: thrown, not caught
// yet, running the destructors of the frames it leaves.  The unwinder then
// holds the handler frame's stack pointer (libunwind's private_2) and
// landing pad (libc++abi's cache of its search), of this stack and this
// ISA: a rewrite would leave them pointing at frames and code that are no
// longer there.  The thread moves at a point after the handler is reached.
bool unwindingException() {
  if (!__cxa_get_globals_fast)
    return false;
  CxaEhGlobals *G = __cxa_get_globals_fast();
  return G && G->UncaughtExceptions;
}

// popcorn_migrate's result: 0 if the thread is (now) on Target.
int moveTo(RegisterSet &Registers, int Target, bool Asked) {
  NodeState &N = node();
  if (Target < 0 || Target >= N.NodeCount || !N.Nodes[Target].Machine) {
    errno = EINVAL;
    return -1;
  }
  if (Target == N.Self)
    return 0;
  // The program's SIGSEGV handler, run by the node's own on its signal
  // stack (nodes/RemoteNode.cpp): its frame would be refused, and a page fault
  // on the runtime's stack would be delivered over it, at the signal
  // stack's top.
  if ((N.Remote && N.SignalStack.contains(Registers.Sp)) || unwindingException()) {
    errno = EAGAIN;
    return -1;
  }
  uint8_t *Stack = N.Remote ? N.RuntimeStackTop : nullptr;
  if (!Stack) {
    // An ending thread runs the program's cleanup handlers and key
    // destructors where it ends, at home.
    if (threadEnding()) {
      errno = EAGAIN;
      return -1;
    }
    ThreadState *T = currentThread();
    if (!T) {
      errno = ENOMEM;
      return -1;
    }
    if (T->Migrating) {
      errno = EAGAIN;
      return -1;
    }
    T->Migrating = true; // until it stays, or comes back (HomeNode.cpp)
    Stack = T->RuntimeStackTop;
  }
  MigrationJob Job{&Registers, Target, Asked, 0};
  popcorn_call_on_stack(Stack, runMigration, &Job);
  if (ThreadState *T = N.Remote ? nullptr : existingThread())
    T->Migrating = false;
  errno = Job.Error;
  return -1;
}
} // namespace

extern "C" void popcorn_migration_point_slow(RegisterSet *Registers) {
  NodeState &N = node();
  if (N.Requested) {
    N.Requested = false;
    Registers->Gpr[0] = uint64_t(int64_t(moveTo(*Registers, N.RequestedNode, true)));
    return;
  }
  // A point the program did not ask for must leave its errno as it was
  // (a refused move sets it).
  int ProgramErrno = errno;
  if (Config.Run == Mode::Migrate) {
    // Cleared before the triggers are read: a signal arriving meanwhile
    // sets it again.
    if (!triggersSet())
      __popcorn_migration_pending = 0;
    int Target = triggeredDestination(*Registers);
    N.LastRefusal.Error = RewriteError::None;
    bool Stays = Target >= 0 && moveTo(*Registers, Target, false);
    if (Stays && Config.Verbose) {
      Line L;
      L << "popcorn: thread " << int64_t(homeTid()) << " stays on node " << uint64_t(N.Self)
        << ", not to node " << uint64_t(Target) << ": ";
      if (N.LastRefusal.Error == RewriteError::None) {
        L << strerror(errno);
      } else {
        L << describe(N.LastRefusal.Error) << " (frame " << uint64_t(N.LastRefusal.Frames)
          << ", pc ";
        L.hex(N.LastRefusal.Pc) << ")";
      }
    }
    errno = ProgramErrno;
    return;
  }
  if (Config.Run == Mode::CheckUnwind) {
    checkStack(*Registers);
    return;
  }
  if (Config.Run == Mode::Off)
    return;
  ThreadState *T = currentThread();
  if (!T || unwindingException())
    return;
  if (!T->Pending && ++T->Points % Config.Every != 0)
    return;
  T->Pending = true;
  SelfTestJob Job{Registers, T};
  popcorn_call_on_stack(T->RuntimeStackTop, runSelfTest, &Job);
  // Back here only when the rewrite was refused.
  errno = ProgramErrno;
}
