//===- ScheduleSettings.h - POPCORN_MIGRATE, read -----------------*- C++ -*-===//
//
// POPCORN_MIGRATE is a schedule of ';'-separated KEY=VALUE settings,
// spaces allowed around each part:
//   one trigger of   every=N, random=P, after=DURATION, period=DURATION,
//                    at=FUNCTION (Triggers.h says what each does)
//   seed=S           random='s seed (default 1), with random= only
//   nodes=A,B,...    the cycle of destinations
//   threads=main|all which threads the trigger moves (default all)
// Each key at most once.  An unknown key, a malformed value, a key given
// twice, a second trigger or a seed without random= is refused.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SCHEDULESETTINGS_H
#define POPCORN_RUNTIME_SCHEDULESETTINGS_H

#include "link/Message.h"
#include "support/Report.h"

namespace popcorn {

struct ScheduleSettings {
  uint64_t Every;          // 0: not given
  uint64_t RandomBelow;    // a point moves if a random 64-bit number is below; 0: not given
  uint64_t Seed;           // 1 unless given
  uint64_t AfterNs;        // 0: not given
  uint64_t PeriodNs;       // 0: not given
  char At[256];            // empty: not given
  int Cycle[MaxNodes * 2]; // nodes=
  unsigned CycleLength;    // 0: not given
  bool MainOnly;           // threads=main
};

/// Reads Schedule for a program whose nodes are the bits set in Nodes
/// (bit I: node I).  False if a setting is malformed, with the setting
/// and why in Why (one line, for "POPCORN_MIGRATE: ").
bool readSchedule(const char *Schedule, uint32_t Nodes, ScheduleSettings &Out, TextBuffer &Why);

/// "20ms" and the like (ns, us, ms, s, m, h; decimals allowed) in
/// nanoseconds; 0 if malformed or past 2^64 ns.
uint64_t durationOf(const char *Value);

} // namespace popcorn

#endif
