//===- Triggers.cpp - When a thread moves without asking ------------------===//
//
// The schedule lives in the program's data: the thread reads it on
// whichever node it runs.  It is written only at home, before main or
// while the thread is there (the signal), because while the thread is
// away its pages belong to the node it is on.
//
//===----------------------------------------------------------------------===//
#include "migration/Triggers.h"
#include "control/ControlSocket.h"
#include "migration/Thread.h"
#include "signals/SignalState.h"
#include "signals/Steering.h"
#include "state/ExecutableFile.h"
#include "state/MigrationMetadata.h"
#include "state/NodeState.h"
#include "state/ScheduleSettings.h"
#include "state/Settings.h"
#include "support/AddressMap.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" {
extern int __popcorn_migration_pending;
}

namespace popcorn {
namespace {

struct CodeRange {
  uint64_t Start, End;
  bool Taken;
};

struct Schedule {
  bool Set;
  uint64_t Every;          // 0: off
  uint64_t RandomBelow;    // a point moves if the next random number is below
  uint64_t RandomState;
  FunctionRange At[2];     // per ISA: x86-64, aarch64
  bool AtTaken;
  CodeRange Ranges[2];     // X86_64_MIGRATE_*, AARCH64_MIGRATE_*
  int Cycle[MaxNodes * 2];
  unsigned CycleLength, Next;
  uint64_t Points;
  volatile sig_atomic_t Signalled;
  bool Periodic;           // period=: set before main, read-only after
} Plan;

// A setting refused ends the program before it runs: at once, without the
// exit handlers (POPCORN_LOG=stats would report a run that never was).
[[noreturn]] void malformed(const char *Variable, const char *Why) {
  Line() << "popcorn: " << Variable << ": " << Why;
  sys::exitGroup(2);
}

void onSignal(int) {
  // period=: a tick while the thread is away brings it home.  (Plan is
  // the program's data, whose page may be away too; Periodic never
  // changes after the start, so home's copy is right.)
  if (Plan.Periodic && node().ThreadAway) {
    steerThread(0);
    return;
  }
  // While the thread is away its pages, the schedule's among them, belong
  // to another node: the request waits in this process's own state, and
  // the thread comes home at its next point to take it there (to the
  // cycle's next node, which may be home itself).
  node().SignalledMigration = true;
  if (node().ThreadAway) {
    steerThread(0);
    return;
  }
  Plan.Signalled = 1;
  __popcorn_migration_pending = 1;
}

// The thread meets the signal at its next point, as Popcorn's does.  The
// shell's SIGRTMIN (glibc's, 34) asks too, for `kill -RTMIN PID` (musl's
// SIGRTMIN is 35; it keeps 34 for __synccall, which puts the runtime's
// action back when done).
void installSignalTrigger() {
  struct sigaction Action = {};
  Action.sa_handler = onSignal;
  Action.sa_flags = SA_RESTART;
  sigaction(SIGRTMIN, &Action, nullptr);
  // The shell's is also popcorn-ctl's (ControlSocket.h), whose action it is.
  setShellSignalTrigger(onSignal);
}

void armTimer(uint64_t Nanoseconds, bool Repeat) {
  struct sigevent Event = {};
  Event.sigev_notify = SIGEV_SIGNAL;
  Event.sigev_signo = SIGRTMIN;
  timer_t Timer;
  struct itimerspec When = {};
  When.it_value.tv_sec = time_t(Nanoseconds / 1000000000);
  When.it_value.tv_nsec = long(Nanoseconds % 1000000000);
  if (Repeat)
    When.it_interval = When.it_value;
  if (timer_create(CLOCK_MONOTONIC, &Event, &Timer) || timer_settime(Timer, 0, &When, nullptr))
    malformed("POPCORN_MIGRATE", "cannot arm a timer for after= or period=");
}

// Function Name's code on ISA Machine.  Where strip took the symbols, only
// its start is known: its end is where its recorded calls end, which is
// all a trigger needs (a thread meets it at a recorded call).
void findAt(const ExecutableFile &Exe, const char *Name, uint16_t Machine, FunctionRange &Out) {
  ExecutableFile::Lookup Found = Exe.findFunction(Name, Machine, Out);
  if (Found != ExecutableFile::Lookup::Found) {
    Line() << "popcorn: POPCORN_MIGRATE: at=" << Name
           << (Found == ExecutableFile::Lookup::NoSymbols
                   ? ": the program has no symbols (stripped); at= needs them"
                   : ": no such function in the program");
    sys::exitGroup(2);
  }
  IsaTables Tables(migrationMetadata(), Machine);
  if (!Out.End && Tables.valid())
    Out.End = Tables.recordedCallsEnd(Out.Start);
}

void readAt(const char *Name) {
  ExecutableFile Exe;
  findAt(Exe, Name, EmX86_64, Plan.At[0]);
  findAt(Exe, Name, EmAArch64, Plan.At[1]);
  // A bounded function (no loop, and calls only to such functions) has no
  // migration point, nor any recorded call: entering it triggers nothing.
  const FunctionRange &Here = Plan.At[sys::Here == EmX86_64 ? 0 : 1];
  IsaTables Tables(migrationMetadata(), sys::Here);
  if (Tables.valid() && !Tables.recordsCallsIn(Here.Start, Here.End)) {
    Line() << "popcorn: POPCORN_MIGRATE: at=" << Name
           << ": the function has no migration point (it has no loop and calls no function"
              " that has one, or it is marked popcorn_nomigrate); name a function that calls it";
    sys::exitGroup(2);
  }
}

// Popcorn's X86_64_MIGRATE_START and X86_64_MIGRATE_END, for one ISA.
void readRange(Setting StartName, Setting EndName, CodeRange &Out) {
  const char *Start = setting(StartName), *End = setting(EndName);
  if (!Start && !End)
    return;
  char *StartEnd = nullptr, *EndEnd = nullptr;
  Out.Start = Start ? strtoull(Start, &StartEnd, 16) : 0;
  Out.End = End ? strtoull(End, &EndEnd, 16) : 0;
  if (!Start || !End || *StartEnd || *EndEnd || Out.Start >= Out.End)
    malformed(settingName(StartName),
              "needs both ends of a code range, in hexadecimal, start below end");
  Plan.Set = true;
}

uint64_t nextRandom() {
  // xorshift64*: reproducible for a seed on every ISA.
  uint64_t X = Plan.RandomState;
  X ^= X >> 12;
  X ^= X << 25;
  X ^= X >> 27;
  Plan.RandomState = X;
  return X * 0x2545f4914f6cdd1dull;
}

int nextInCycle() {
  return Plan.CycleLength ? Plan.Cycle[Plan.Next++ % Plan.CycleLength] : -1;
}

int firstNodeOf(uint16_t Machine) {
  NodeState &N = node();
  for (int Id = 0; Id < N.NodeCount; Id++)
    if (N.Nodes[Id].Machine == Machine && Id != N.Self)
      return Id;
  return -1;
}

// The nodes POPCORN_NODES names, as bits.
uint32_t existingNodes() {
  NodeState &N = node();
  uint32_t Nodes = 0;
  for (int I = 0; I < N.NodeCount; I++)
    if (N.Nodes[I].Machine)
      Nodes |= uint32_t(1) << I;
  return Nodes;
}

// Without nodes=: the first node but home, then home.
void defaultCycle() {
  NodeState &N = node();
  for (int I = 1; I < N.NodeCount; I++)
    if (N.Nodes[I].Machine) {
      Plan.Cycle[0] = I;
      Plan.Cycle[1] = 0;
      Plan.CycleLength = 2;
      return;
    }
}

} // namespace

void readSchedule(ScheduleSettings &Out) {
  const char *Schedule = setting(Setting::Migrate);
  char Reason[300];
  TextBuffer Why(Reason, sizeof Reason);
  if (!readSchedule(Schedule ? Schedule : "", existingNodes(), Out, Why))
    malformed("POPCORN_MIGRATE", Reason);
}

bool readTriggers() {
  readRange(Setting::X86_64MigrateStart, Setting::X86_64MigrateEnd, Plan.Ranges[0]);
  readRange(Setting::AArch64MigrateStart, Setting::AArch64MigrateEnd, Plan.Ranges[1]);
  installSignalTrigger();
  ScheduleSettings S;
  readSchedule(S);
  memcpy(Plan.Cycle, S.Cycle, sizeof Plan.Cycle);
  Plan.CycleLength = S.CycleLength;
  if (!Plan.CycleLength)
    defaultCycle();
  bool Trigger = S.Every || S.RandomBelow || S.AfterNs || S.PeriodNs || *S.At;
  if (Trigger && !Plan.CycleLength)
    malformed("POPCORN_MIGRATE", "there is no other node to move to (POPCORN_NODES)");
  Plan.Every = S.Every;
  Plan.RandomBelow = S.RandomBelow;
  Plan.RandomState = S.Seed * 2 + 1;
  if (S.AfterNs)
    armTimer(S.AfterNs, false);
  if (S.PeriodNs) {
    Plan.Periodic = true;
    armTimer(S.PeriodNs, true);
  }
  if (*S.At)
    readAt(S.At);
  Plan.Set = Plan.Set || Plan.Every || Plan.RandomBelow || Plan.At[0].Start;
  return Plan.Set;
}

bool triggersSet() { return Plan.Set; }

int takeSignalledDestination() {
  NodeState &N = node();
  if (int Steered = takeSteeredDestination(); Steered >= 0)
    return Steered; // popcorn-ctl migrate: a node rather than the cycle's next
  if (!Plan.Signalled && (N.Remote || !N.SignalledMigration))
    return -1;
  Plan.Signalled = 0;
  N.SignalledMigration = false;
  int Next = nextInCycle();
  // period= alternates: away at one tick, home at the next.
  for (unsigned Tries = 0; Plan.Periodic && Next == N.Self && Tries < Plan.CycleLength; Tries++)
    Next = nextInCycle();
  return Next;
}

int triggeredDestination(const RegisterSet &Registers) {
  int Signalled = takeSignalledDestination();
  if (Signalled >= 0 || !Plan.Set)
    return Signalled;
  unsigned Isa = Registers.Machine == EmX86_64 ? 0 : 1;
  CodeRange &Range = Plan.Ranges[Isa];
  if (!Range.Taken && Registers.Pc >= Range.Start && Registers.Pc < Range.End) {
    Range.Taken = true;
    return firstNodeOf(Isa == 0 ? EmAArch64 : EmX86_64);
  }
  const FunctionRange &At = Plan.At[Isa];
  if (!Plan.AtTaken && Registers.Pc >= At.Start && Registers.Pc < At.End) {
    Plan.AtTaken = true;
    return nextInCycle();
  }
  Plan.Points++;
  if (Plan.Every && Plan.Points % Plan.Every == 0)
    return nextInCycle();
  if (Plan.RandomBelow && nextRandom() < Plan.RandomBelow)
    return nextInCycle();
  return -1;
}

} // namespace popcorn
