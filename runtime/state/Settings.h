//===- Settings.h - The runtime's environment variables, read once -*- C++ -*-===//
//
// The runtime reads a dozen variables as a process starts.  A getenv each
// would read the whole environment a dozen times, most of what a short
// program's start costs beyond stock's; one pass in __popcorn_start keeps
// where each one is.  They are the environment the process started with,
// before the program's constructors (which may setenv) ran.
//
//===----------------------------------------------------------------------===//
#ifndef POPCORN_RUNTIME_SETTINGS_H
#define POPCORN_RUNTIME_SETTINGS_H

namespace popcorn {

enum class Setting {
  Node,               // POPCORN_NODE
  Nodes,              // POPCORN_NODES
  Log,                // POPCORN_LOG
  Timeout,            // POPCORN_TIMEOUT
  TrackWrites,        // POPCORN_TRACK_WRITES
  Migrate,            // POPCORN_MIGRATE
  CheckUnwind,        // POPCORN_CHECK_UNWIND
  SelfTest,           // POPCORN_SELFTEST
  Trace,              // POPCORN_TRACE
  X86_64MigrateStart, // X86_64_MIGRATE_START
  X86_64MigrateEnd,   // X86_64_MIGRATE_END
  AArch64MigrateStart, // AARCH64_MIGRATE_START
  AArch64MigrateEnd,  // AARCH64_MIGRATE_END
  Ssh,                // POPCORN_SSH
  NodeCommand,        // POPCORN_NODE_COMMAND
};
inline constexpr int SettingCount = int(Setting::NodeCommand) + 1;

/// Before anything reads a setting: finds them all in Envp.
void readSettings(char **Envp);

/// The value of S's variable (its first entry), or nullptr if unset.
const char *setting(Setting S);

/// S's variable's name, for messages.
const char *settingName(Setting S);

} // namespace popcorn

// The priority of the runtime's constructors and of its destructors that
// end a run (the report, the trace).  Its constructors run before every
// constructor of a C++ static object, libc++'s standard streams' included
// (made at 100); its destructors after every other: after the atexit
// handlers and C++ static objects' destructors, and after the program's
// own destructors, since any of them may still move the thread (flushing
// std::cout).  0-100 are the implementation's, and the runtime is.
#define POPCORN_BEFORE_STATIC_OBJECTS 99

namespace popcorn {

} // namespace popcorn

#endif
