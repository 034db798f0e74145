//===- Triggers.cpp - When a thread moves without asking ------------------===//
//
// The schedule lives in the program's data: the thread reads it on
// whichever node it runs.  It is written only at home, before main or
// while the thread is there (the signal), because while the thread is
// away its pages belong to the node it is on.
//
//===----------------------------------------------------------------------===//
#include "Triggers.h"
#include "AddressMap.h"
#include "ExecutableFile.h"
#include "NodeState.h"
#include "Report.h"
#include "Steering.h"
#include "Syscall.h"
#include "Thread.h"
#include <popcorn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" int __popcorn_migration_pending;

namespace popcorn {
// A decimal such as "0.05" or "20" as Numerator / Denominator.  Not strtod:
// that would link libc's floating-point parser into every program.
struct Decimal {
  uint64_t Numerator, Denominator;
};

static const char *readDecimal(const char *P, Decimal &Out) {
  Out = {0, 1};
  const char *Start = P;
  for (; *P >= '0' && *P <= '9' && Out.Numerator < (uint64_t(1) << 58); P++)
    Out.Numerator = Out.Numerator * 10 + uint64_t(*P - '0');
  if (*P == '.')
    for (P++; *P >= '0' && *P <= '9' && Out.Denominator < (uint64_t(1) << 58); P++) {
      Out.Numerator = Out.Numerator * 10 + uint64_t(*P - '0');
      Out.Denominator *= 10;
    }
  return P == Start ? nullptr : P;
}

uint64_t durationOf(const char *Value) {
  Decimal Amount;
  const char *Unit = readDecimal(Value, Amount);
  if (!Unit)
    return 0;
  size_t UnitLength = strcspn(Unit, ";");
  struct {
    const char *Name;
    uint64_t Nanoseconds;
  } const Units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
  for (const auto &U : Units)
    if (UnitLength == strlen(U.Name) && !strncmp(Unit, U.Name, UnitLength))
      return uint64_t((unsigned __int128)Amount.Numerator * U.Nanoseconds / Amount.Denominator);
  return 0;
}

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

[[noreturn]] void malformed(const char *Variable, const char *Why) {
  Line() << "popcorn: " << Variable << ": " << Why;
  exit(2);
}

// A setting's value up to the next ';' into Out; false if it does not fit.
bool valueOf(const char *Value, char *Out, size_t Size) {
  size_t Length = strcspn(Value, ";");
  if (!Length || Length >= Size)
    return false;
  memcpy(Out, Value, Length);
  Out[Length] = 0;
  return true;
}

void readCycle(const char *Nodes) {
  while (*Nodes && *Nodes != ';') {
    char *End;
    long Id = strtol(Nodes, &End, 10);
    if (End == Nodes || Id < 0 || Id >= popcorn_num_nodes() ||
        Plan.CycleLength == sizeof Plan.Cycle / sizeof Plan.Cycle[0] ||
        (*End && *End != ',' && *End != ';'))
      malformed("POPCORN_MIGRATE", "nodes= must list node numbers of POPCORN_NODES, e.g. nodes=1,0");
    Plan.Cycle[Plan.CycleLength++] = int(Id);
    Nodes = *End == ',' ? End + 1 : End;
  }
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
  // to another node: the request waits in this process's own state.
  node().SignalledMigration = true;
  if (!node().ThreadAway) {
    Plan.Signalled = 1;
    __popcorn_migration_pending = 1;
  }
}

// The thread meets the signal at its next point, as Popcorn's does.
void installSignalTrigger() {
  struct sigaction Action = {};
  Action.sa_handler = onSignal;
  Action.sa_flags = SA_RESTART;
  sigaction(SIGRTMIN, &Action, nullptr);
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

void readAt(const char *Value) {
  char Name[256];
  if (!valueOf(Value, Name, sizeof Name))
    malformed("POPCORN_MIGRATE", "at= needs a function name");
  ExecutableFile Exe;
  if (!Exe.findFunction(Name, EmX86_64, Plan.At[0]) ||
      !Exe.findFunction(Name, EmAArch64, Plan.At[1])) {
    Line() << "popcorn: POPCORN_MIGRATE: at=" << Name << ": no such function in the program";
    exit(2);
  }
  // A bounded function (no loop, and calls only to such functions) has no
  // migration point, nor any recorded call: entering it triggers nothing.
  const FunctionRange &Here = Plan.At[sys::Here == EmX86_64 ? 0 : 1];
  IsaTables Tables(&__popcorn_metadata, sys::Here);
  if (Tables.valid() && !Tables.recordsCallsIn(Here.Start, Here.End)) {
    Line() << "popcorn: POPCORN_MIGRATE: at=" << Name
           << ": the function has no migration point (it has no loop and calls no function"
              " that has one, or it is marked popcorn_nomigrate); name a function that calls it";
    exit(2);
  }
}

// Popcorn's X86_64_MIGRATE_START and X86_64_MIGRATE_END, for one ISA.
void readRange(const char *StartName, const char *EndName, CodeRange &Out) {
  const char *Start = getenv(StartName), *End = getenv(EndName);
  if (!Start && !End)
    return;
  char *StartEnd = nullptr, *EndEnd = nullptr;
  Out.Start = Start ? strtoull(Start, &StartEnd, 16) : 0;
  Out.End = End ? strtoull(End, &EndEnd, 16) : 0;
  if (!Start || !End || *StartEnd || *EndEnd || Out.Start >= Out.End)
    malformed(StartName, "needs both ends of a code range, in hexadecimal, start below end");
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

} // namespace

bool readTriggers() {
  readRange("X86_64_MIGRATE_START", "X86_64_MIGRATE_END", Plan.Ranges[0]);
  readRange("AARCH64_MIGRATE_START", "AARCH64_MIGRATE_END", Plan.Ranges[1]);
  installSignalTrigger();
  const char *Settings = getenv("POPCORN_MIGRATE");
  if (const char *Nodes = settingOf(Settings, "nodes"))
    readCycle(Nodes);
  if (!Plan.CycleLength && popcorn_num_nodes() > 1) {
    Plan.Cycle[0] = 1;
    Plan.Cycle[1] = 0;
    Plan.CycleLength = 2;
  }
  if (!Settings || !*Settings)
    return Plan.Set;
  bool Known = false;
  if (const char *Every = settingOf(Settings, "every")) {
    Plan.Every = strtoull(Every, nullptr, 10);
    if (!Plan.Every)
      malformed("POPCORN_MIGRATE", "every= needs a positive number of migration points");
    Known = true;
  }
  if (const char *Random = settingOf(Settings, "random")) {
    Decimal P;
    const char *End = readDecimal(Random, P);
    if (!End || (*End && *End != ';') || !P.Numerator || P.Numerator > P.Denominator)
      malformed("POPCORN_MIGRATE", "random= needs a probability in (0, 1]");
    Plan.RandomBelow = P.Numerator == P.Denominator
                           ? ~0ull
                           : uint64_t(((unsigned __int128)P.Numerator << 64) / P.Denominator);
    const char *Seed = settingOf(Settings, "seed");
    Plan.RandomState = (Seed ? strtoull(Seed, nullptr, 10) : 1) * 2 + 1;
    Known = true;
  }
  if (const char *After = settingOf(Settings, "after")) {
    uint64_t Nanoseconds = durationOf(After);
    if (!Nanoseconds)
      malformed("POPCORN_MIGRATE", "after= needs a duration such as 20ms (ns, us, ms, s)");
    armTimer(Nanoseconds, false);
    Known = true;
  }
  if (const char *Period = settingOf(Settings, "period")) {
    uint64_t Nanoseconds = durationOf(Period);
    if (Nanoseconds < 1000000)
      malformed("POPCORN_MIGRATE", "period= needs a duration of 1ms or more, such as 100ms");
    Plan.Periodic = true;
    armTimer(Nanoseconds, true);
    Known = true;
  }
  if (const char *At = settingOf(Settings, "at")) {
    readAt(At);
    Known = true;
  }
  if (!Known && !settingOf(Settings, "nodes"))
    malformed("POPCORN_MIGRATE",
              "expected every=N, random=P, after=DURATION, period=DURATION or at=FUNCTION");
  if (!Plan.CycleLength)
    malformed("POPCORN_MIGRATE", "there is no other node to move to (POPCORN_NODES)");
  Plan.Set = Plan.Set || Plan.Every || Plan.RandomBelow || Plan.At[0].Start;
  return Plan.Set;
}

const char *settingOf(const char *Settings, const char *Key) {
  size_t Length = strlen(Key);
  for (const char *P = Settings; P && *P;) {
    if (!strncmp(P, Key, Length) && P[Length] == '=')
      return P + Length + 1;
    P = strchr(P, ';');
    if (P)
      P++;
  }
  return nullptr;
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
