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
#include <pthread.h>
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

// One thread's own course through the schedule: every= counts its points,
// random= draws from its stream, and it goes round the cycle on its own.
// Found by the thread's struct pthread, which has one address on every
// node, as the table has.
struct ThreadCourse {
  uint64_t Self; // pthread_self(); 0: free, FreedCourse: freed
  uint64_t Points;
  uint64_t RandomState;
  unsigned Next;
};
constexpr uint64_t FreedCourse = 1;
constexpr unsigned CourseSlots = 256; // a power of two

struct Schedule {
  bool Set;
  uint64_t Every;          // 0: off
  uint64_t RandomBelow;    // a point moves if the next random number is below
  uint64_t Seed;
  FunctionRange At[2];     // per ISA: x86-64, aarch64
  bool AtTaken;
  CodeRange Ranges[2];     // X86_64_MIGRATE_*, AARCH64_MIGRATE_*
  int Cycle[MaxNodes * 2];
  unsigned CycleLength;
  bool MainOnly;           // threads=main
  bool Scheduled;          // POPCORN_MIGRATE or a code range: threads get courses
  volatile sig_atomic_t Signalled;
  bool Periodic;           // period=: set before main, read-only after
  // The main thread's course (Self 0 until it first makes a thread: it is
  // the only one until then), the others' by creation, and the one shared
  // by threads beyond the table.
  ThreadCourse Main;
  uint64_t Created;
  ThreadCourse Courses[CourseSlots];
  ThreadCourse Shared;
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

uint64_t nextRandom(ThreadCourse &Course) {
  // xorshift64*: reproducible for a seed on every ISA.
  uint64_t X = Course.RandomState;
  X ^= X >> 12;
  X ^= X << 25;
  X ^= X >> 27;
  Course.RandomState = X;
  return X * 0x2545f4914f6cdd1dull;
}

// Thread Number's first state of random='s stream: the main thread's (0)
// is what it was before threads had their own; the others' are spread by
// splitmix64, so that nearby numbers give unrelated streams.
uint64_t streamStart(uint64_t Seed, uint64_t Number) {
  if (!Number)
    return Seed * 2 + 1;
  uint64_t Z = Seed + Number * 0x9e3779b97f4a7c15ull;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return (Z ^ (Z >> 31)) | 1; // xorshift never leaves 0
}

unsigned slotOf(uint64_t Self, unsigned Probe) {
  return (unsigned(((Self >> 4) * 0x9e3779b97f4a7c15ull) >> 56) + Probe) & (CourseSlots - 1);
}

ThreadCourse *findCourse(uint64_t Self) {
  for (unsigned Probe = 0; Probe < CourseSlots; Probe++) {
    ThreadCourse &C = Plan.Courses[slotOf(Self, Probe)];
    uint64_t Owner = __atomic_load_n(&C.Self, __ATOMIC_ACQUIRE);
    if (Owner == Self)
      return &C;
    if (!Owner)
      return nullptr;
  }
  return nullptr;
}

// The calling thread's course.
ThreadCourse &course() {
  uint64_t Self = uint64_t(pthread_self());
  if (!Plan.Main.Self || Plan.Main.Self == Self)
    return Plan.Main;
  ThreadCourse *C = findCourse(Self);
  return C ? *C : Plan.Shared;
}

// The calling thread's course, or null if threads=main keeps it where it is.
ThreadCourse *scheduledCourse() {
  ThreadCourse &C = course();
  return Plan.MainOnly && &C != &Plan.Main ? nullptr : &C;
}

int nextInCycle(ThreadCourse &Course) {
  return Plan.CycleLength ? Plan.Cycle[Course.Next++ % Plan.CycleLength] : -1;
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
  Plan.Seed = S.Seed;
  Plan.Main.RandomState = streamStart(S.Seed, 0);
  Plan.Shared.RandomState = streamStart(S.Seed, ~uint64_t(0));
  Plan.MainOnly = S.MainOnly;
  if (S.AfterNs)
    armTimer(S.AfterNs, false);
  if (S.PeriodNs) {
    Plan.Periodic = true;
    armTimer(S.PeriodNs, true);
  }
  if (*S.At)
    readAt(S.At);
  Plan.Set = Plan.Set || Plan.Every || Plan.RandomBelow || Plan.At[0].Start;
  // after= and period= come by signal, whose destination is the course's
  // too (and threads=main's limit).
  Plan.Scheduled = Plan.Set || Trigger;
  return Plan.Set;
}

bool triggersSet() { return Plan.Set; }

int takeSignalledDestination() {
  NodeState &N = node();
  if (int Steered = takeSteeredDestination(); Steered >= 0)
    return Steered; // popcorn-ctl migrate: a node rather than the cycle's next
  if (!Plan.Signalled && (N.Remote || !N.SignalledMigration))
    return -1;
  ThreadCourse *Course = scheduledCourse();
  if (!Course) {
    __popcorn_migration_pending = 1; // for the main thread's next point
    return -1;
  }
  Plan.Signalled = 0;
  N.SignalledMigration = false;
  int Next = nextInCycle(*Course);
  // period= alternates: away at one tick, home at the next.
  for (unsigned Tries = 0; Plan.Periodic && Next == N.Self && Tries < Plan.CycleLength; Tries++)
    Next = nextInCycle(*Course);
  return Next;
}

int triggeredDestination(const RegisterSet &Registers) {
  int Signalled = takeSignalledDestination();
  if (Signalled >= 0 || !Plan.Set)
    return Signalled;
  ThreadCourse *Scheduled = scheduledCourse();
  if (!Scheduled)
    return -1;
  ThreadCourse &Course = *Scheduled;
  unsigned Isa = Registers.Machine == EmX86_64 ? 0 : 1;
  CodeRange &Range = Plan.Ranges[Isa];
  if (!Range.Taken && Registers.Pc >= Range.Start && Registers.Pc < Range.End) {
    Range.Taken = true;
    return firstNodeOf(Isa == 0 ? EmAArch64 : EmX86_64);
  }
  const FunctionRange &At = Plan.At[Isa];
  if (!Plan.AtTaken && Registers.Pc >= At.Start && Registers.Pc < At.End) {
    Plan.AtTaken = true;
    return nextInCycle(Course);
  }
  Course.Points++;
  if (Plan.Every && Course.Points % Plan.Every == 0)
    return nextInCycle(Course);
  if (Plan.RandomBelow && nextRandom(Course) < Plan.RandomBelow)
    return nextInCycle(Course);
  return -1;
}

void forgetThreadCourse() {
  if (ThreadCourse *C = Plan.Scheduled ? findCourse(uint64_t(pthread_self())) : nullptr)
    __atomic_store_n(&C->Self, FreedCourse, __ATOMIC_RELEASE);
}

// The number is the thread's place in the order of creation, the same in
// every run that creates its threads in the same order, whatever they do
// meanwhile.
void numberThread(void *Thread) {
  if (!Plan.Scheduled)
    return;
  if (!Plan.Main.Self)
    Plan.Main.Self = uint64_t(pthread_self());
  uint64_t Self = uint64_t(Thread), Number = ++Plan.Created;
  ThreadCourse *C = findCourse(Self);
  for (unsigned Probe = 0; !C && Probe < CourseSlots; Probe++)
    if (ThreadCourse &Slot = Plan.Courses[slotOf(Self, Probe)]; Slot.Self <= FreedCourse)
      C = &Slot;
  if (!C)
    return; // beyond the table: it shares Plan.Shared
  C->Points = 0;
  C->Next = 0;
  C->RandomState = streamStart(Plan.Seed, Number);
  __atomic_store_n(&C->Self, Self, __ATOMIC_RELEASE);
}
} // namespace popcorn

// musl's pthread_create (libc-patches/common/0010-thread-creation-hook.patch),
// at home (pthread_create brings its caller home: compiler/plugin/
// HomeOnlyCalls.cpp), under the thread list lock, with the program's
// signals blocked, before the new thread runs: no lock, no allocation.
// Here, in a file every program links, for the weak definition in libc
// would keep an archive member of its own out.
extern "C" void __popcorn_thread_created(void *Thread) {
  popcorn::noteQemuThreads();
  popcorn::numberThread(Thread);
}
