//===- ScheduleSettings.cpp - POPCORN_MIGRATE, read -----------------------===//
//
// No strtod or strtoul: the one would link libc's floating-point parser
// into every program, the other accepts what follows the digits.
//
//===----------------------------------------------------------------------===//
#include "state/ScheduleSettings.h"
#include "support/Text.h"
#include <string.h>

namespace popcorn {
namespace {

// A decimal such as "0.05" or "20" as Numerator / Denominator.
struct Decimal {
  uint64_t Numerator, Denominator;
};

const char *readDecimal(const char *P, Decimal &Out) {
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

bool isSpace(char C) { return C == ' ' || C == '\t'; }

// A setting's part, spaces trimmed, as a string of its own.
struct Part {
  char Text[256];
  bool Fits;
};

Part partOf(const char *Begin, const char *End) {
  while (Begin < End && isSpace(*Begin))
    Begin++;
  while (End > Begin && isSpace(End[-1]))
    End--;
  Part P;
  size_t Length = size_t(End - Begin);
  P.Fits = Length < sizeof P.Text;
  Length = P.Fits ? Length : sizeof P.Text - 1;
  memcpy(P.Text, Begin, Length);
  P.Text[Length] = 0;
  return P;
}

// The number that is all of Text, at most Max.
bool wholeNumber(const char *Text, uint64_t Max, uint64_t &Out) {
  return readUnsigned(Text, Max, Out) && !*Text;
}

// Each reader takes a value; false with the reason in Why.
using Reader = bool (*)(const char *Value, uint32_t Nodes, ScheduleSettings &Out, TextBuffer &Why);

bool readEvery(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  if (wholeNumber(Value, uint64_t(1) << 62, Out.Every) && Out.Every)
    return true;
  Why << "every= needs a positive whole number of migration points, such as every=5000";
  return false;
}

bool readRandom(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  Decimal P;
  const char *End = readDecimal(Value, P);
  if (!End || *End || !P.Numerator || P.Numerator > P.Denominator) {
    Why << "random= needs a probability in (0, 1], such as random=0.01";
    return false;
  }
  Out.RandomBelow = P.Numerator == P.Denominator
                        ? ~uint64_t(0)
                        : uint64_t(((unsigned __int128)P.Numerator << 64) / P.Denominator);
  return true;
}

bool readSeed(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  if (wholeNumber(Value, uint64_t(1) << 62, Out.Seed))
    return true;
  Why << "seed= needs a whole number, such as seed=7";
  return false;
}

bool readAfter(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  if ((Out.AfterNs = durationOf(Value)))
    return true;
  Why << "after= needs a duration such as after=20ms (ns, us, ms, s, m, h)";
  return false;
}

bool readPeriod(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  if ((Out.PeriodNs = durationOf(Value)) >= 1000000)
    return true;
  Why << "period= needs a duration of 1ms or more, such as period=100ms";
  return false;
}

bool readAt(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  if (!*Value || strcspn(Value, " \t") != strlen(Value)) {
    Why << "at= needs a function name, such as at=solve";
    return false;
  }
  memcpy(Out.At, Value, strlen(Value) + 1);
  return true;
}

bool readNodes(const char *Value, uint32_t Nodes, ScheduleSettings &Out, TextBuffer &Why) {
  for (const char *P = Value;; P++) {
    while (isSpace(*P))
      P++;
    uint64_t Id;
    if (!readUnsigned(P, uint64_t(1) << 32, Id)) {
      Why << "nodes= needs node numbers, such as nodes=1,0";
      return false;
    }
    if (Id >= 32 || !(Nodes & (uint32_t(1) << Id))) {
      Why << "node " << Id << " is not in POPCORN_NODES";
      return false;
    }
    if (Out.CycleLength == sizeof Out.Cycle / sizeof Out.Cycle[0]) {
      Why << "nodes= lists at most " << uint64_t(sizeof Out.Cycle / sizeof Out.Cycle[0])
          << " nodes";
      return false;
    }
    Out.Cycle[Out.CycleLength++] = int(Id);
    while (isSpace(*P))
      P++;
    if (!*P)
      return true;
    if (*P != ',') {
      Why << "nodes= needs node numbers, such as nodes=1,0";
      return false;
    }
  }
}

bool readThreads(const char *Value, uint32_t, ScheduleSettings &Out, TextBuffer &Why) {
  Out.MainOnly = !strcmp(Value, "main");
  if (Out.MainOnly || !strcmp(Value, "all"))
    return true;
  Why << "threads= is main (the main thread alone) or all";
  return false;
}

const struct Key {
  const char *Name;
  Reader Read;
  bool Trigger; // one per schedule
} Keys[] = {{"every", readEvery, true}, {"random", readRandom, true},
            {"after", readAfter, true}, {"period", readPeriod, true},
            {"at", readAt, true},       {"seed", readSeed, false},
            {"nodes", readNodes, false}, {"threads", readThreads, false}};
constexpr unsigned KeyCount = sizeof Keys / sizeof Keys[0];

const Key *keyNamed(const char *Name) {
  for (const Key &K : Keys)
    if (!strcmp(K.Name, Name))
      return &K;
  return nullptr;
}

// What is known of the schedule so far.
struct Reading {
  const Key *Given[KeyCount];
  unsigned GivenCount;
  const Key *Trigger;
};

// One KEY=VALUE setting; false with the reason in Why.
bool readSetting(const Part &Setting, uint32_t Nodes, Reading &State, ScheduleSettings &Out,
                 TextBuffer &Why) {
  const char *Equals = strchr(Setting.Text, '=');
  if (!Equals) {
    Why << "not KEY=VALUE (every, random, after, period, at, seed, nodes or threads)";
    return false;
  }
  Part Name = partOf(Setting.Text, Equals);
  Part Value = partOf(Equals + 1, Setting.Text + strlen(Setting.Text));
  const Key *K = keyNamed(Name.Text);
  if (!K) {
    Why << "no such setting (every, random, after, period, at, seed, nodes or threads)";
    return false;
  }
  for (unsigned I = 0; I < State.GivenCount; I++)
    if (State.Given[I] == K) {
      Why << K->Name << "= is given twice";
      return false;
    }
  State.Given[State.GivenCount++] = K;
  if (K->Trigger && State.Trigger) {
    Why << "a schedule has one trigger, and " << State.Trigger->Name << "= is one";
    return false;
  }
  if (K->Trigger)
    State.Trigger = K;
  if (!Setting.Fits) {
    Why << "too long";
    return false;
  }
  return K->Read(Value.Text, Nodes, Out, Why);
}

// Writes "'SETTING': " and Reason into Why; false.
bool refuse(TextBuffer &Why, const Part &Setting, const char *Reason) {
  Why << "'" << Setting.Text << (Setting.Fits ? "" : "...") << "': " << Reason;
  return false;
}

} // namespace

bool readSchedule(const char *Schedule, uint32_t Nodes, ScheduleSettings &Out, TextBuffer &Why) {
  Out = {};
  Out.Seed = 1;
  Reading State = {};
  Part Seed = {};
  for (const char *Begin = Schedule; *Begin;) {
    const char *End = Begin + strcspn(Begin, ";");
    Part Setting = partOf(Begin, End);
    Begin = *End ? End + 1 : End;
    if (!*Setting.Text)
      continue; // "every=5;", or spaces only
    char Reason[160];
    TextBuffer Text(Reason, sizeof Reason);
    if (!readSetting(Setting, Nodes, State, Out, Text))
      return refuse(Why, Setting, Reason);
    if (!strcmp(State.Given[State.GivenCount - 1]->Name, "seed"))
      Seed = Setting;
  }
  if (*Seed.Text && !Out.RandomBelow)
    return refuse(Why, Seed, "seed= goes with random= only");
  return true;
}

uint64_t durationOf(const char *Value) {
  Decimal Amount;
  const char *Unit = readDecimal(Value, Amount);
  if (!Unit)
    return 0;
  const struct {
    const char *Name;
    uint64_t Nanoseconds;
  } Units[] = {{"ns", 1},
               {"us", 1000},
               {"ms", 1000000},
               {"s", 1000000000},
               {"m", 60 * uint64_t(1000000000)},
               {"h", 3600 * uint64_t(1000000000)}};
  for (const auto &U : Units) {
    if (strcmp(Unit, U.Name))
      continue;
    auto Ns = (unsigned __int128)Amount.Numerator * U.Nanoseconds / Amount.Denominator;
    return Ns > ~uint64_t(0) ? 0 : uint64_t(Ns);
  }
  return 0;
}

} // namespace popcorn
