//===- Emulation.cpp - Whether this process runs under qemu-user ----------===//
#include "state/Emulation.h"
#include "state/NodeState.h"
#include "support/Report.h"
#include "support/Syscall.h"
#include <string.h>

namespace popcorn {

// qemu-user answers /proc/self/exe with the program it runs, but leaves
// /proc/self/task/TID/exe to the kernel, which names qemu itself.  Run
// natively, both name the program.
bool runsEmulated() {
  constexpr long AtFdcwd = -100;
  char ThreadExe[64], Program[256], Runner[256];
  TextBuffer(ThreadExe, sizeof ThreadExe)
      << "/proc/self/task/" << uint64_t(sys::call6(sys::Gettid, 0)) << "/exe";
  long ProgramBytes = sys::call6(sys::Readlinkat, AtFdcwd, long("/proc/self/exe"),
                                 long(Program), sizeof Program);
  long RunnerBytes =
      sys::call6(sys::Readlinkat, AtFdcwd, long(ThreadExe), long(Runner), sizeof Runner);
  return ProgramBytes > 0 && RunnerBytes > 0 &&
         (ProgramBytes != RunnerBytes || memcmp(Program, Runner, size_t(ProgramBytes)));
}

bool homeRunsEmulated() {
  NodeEntry &Home = node().Nodes[0];
  if (!__atomic_load_n(&Home.EmulationKnown, __ATOMIC_ACQUIRE)) {
    Home.Emulated = runsEmulated();
    __atomic_store_n(&Home.EmulationKnown, true, __ATOMIC_RELEASE);
  }
  return Home.Emulated;
}

} // namespace popcorn
