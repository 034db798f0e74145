//===- Settings.cpp - The runtime's environment variables, read once ------===//
#include "state/Settings.h"
#include "state/NodeState.h"

namespace popcorn {
namespace {

// In Setting's order.
constexpr const char *Names[SettingCount] = {
    "POPCORN_NODE",         "POPCORN_NODES",        "POPCORN_LOG",
    "POPCORN_TIMEOUT",      "POPCORN_TRACK_WRITES", "POPCORN_MIGRATE",
    "POPCORN_CHECK_UNWIND", "POPCORN_SELFTEST",     "POPCORN_TRACE",
    "X86_64_MIGRATE_START", "X86_64_MIGRATE_END",   "AARCH64_MIGRATE_START",
    "AARCH64_MIGRATE_END",  "POPCORN_SSH",          "POPCORN_NODE_COMMAND"};

static_assert(sizeof(NodeState::Settings) / sizeof(NodeState::Settings[0]) == SettingCount,
              "room for every setting");

// Most entries are no setting's (PATH, PWD), and show it in their first
// two characters.
constexpr const char *Beginnings[] = {"PO", "X8", "AA"};
constexpr bool beginsLikeAName(const char *Entry) {
  for (const char *B : Beginnings)
    if (Entry[0] == B[0] && Entry[1] == B[1]) // Entry[1] exists if Entry[0] is B[0]
      return true;
  return false;
}
constexpr bool everyNameBeginsSo() {
  for (const char *Name : Names)
    if (!beginsLikeAName(Name))
      return false;
  return true;
}
static_assert(everyNameBeginsSo(), "Beginnings has every name's first two characters");

// Entry's value if it is Name's entry ("NAME=VALUE"), else nullptr.
const char *valueIf(const char *Entry, const char *Name) {
  while (*Name && *Entry == *Name)
    Entry++, Name++;
  return !*Name && *Entry == '=' ? Entry + 1 : nullptr;
}

} // namespace

void readSettings(char **Envp) {
  const char **Values = node().Settings;
  for (; *Envp; Envp++) {
    if (!beginsLikeAName(*Envp))
      continue;
    for (int I = 0; I < SettingCount; I++)
      if (const char *Value = valueIf(*Envp, Names[I])) {
        if (!Values[I])
          Values[I] = Value;
        break;
      }
  }
}

const char *setting(Setting S) { return node().Settings[int(S)]; }

const char *settingName(Setting S) { return Names[int(S)]; }

} // namespace popcorn
