//===- SignalContext.cpp - aarch64's ucontext_t for every handler ---------===//
//
// A program compiled by popcorn-clang is compiled once, for aarch64's ABI,
// so its SA_SIGINFO handlers read their context argument as aarch64's
// ucontext_t (gnulib's stack-overflow handler reads the interrupted stack
// pointer from it).  musl calls every such handler through a wrapper
// (libc-patches/common/0006-program-signal-handlers.patch) that asks here
// for the context to pass and, after the handler, for what it changed.
//
// On aarch64 that is the kernel's own.  On x86-64 it is written from the
// kernel's: the stack pointer, the program counter and the fault address
// mean the same on both ISAs; the general registers have no counterparts,
// so regs[0..15] hold x86-64's in their DWARF order (rax rdx rcx rbx rsi
// rdi rbp rsp r8-r15) and x29, the frame pointer, holds rbp too.  No
// extension records (the __reserved area is zero).  Back from the handler,
// the signal mask and those registers go to the kernel's context, which
// sigreturn restores.
//
// Away from home the kernel's alternate signal stack is the node's own
// (its SIGSEGV handler brings pages in on it), so a program's handler runs
// there; the wrapper asks here for the program's alternate stack, to give
// the handler that stack for its objects as at home.
//
//===----------------------------------------------------------------------===//
#include "signals/SignalState.h"
#include "state/NodeState.h"
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace {

struct Aarch64Context {
  uint64_t Flags;
  uint64_t Link;
  stack_t Stack;
  uint64_t Mask[16]; // musl's sigset_t; the kernel's is the first word
  struct alignas(16) {
    uint64_t FaultAddress, Regs[31], Sp, Pc, Pstate;
    alignas(16) uint8_t Reserved[4096];
  } Machine;
};
static_assert(offsetof(Aarch64Context, Machine) == 176, "aarch64's ucontext_t");
// POPCORN_CONTEXT_SIZE in musl's src/internal/popcorn_context.h.
static_assert(sizeof(Aarch64Context) == 4560, "aarch64's ucontext_t");

#if defined(__x86_64__)
constexpr uint8_t DwarfOrder[16] = {
    REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
    REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};
constexpr unsigned FramePointer = 29;
#endif

} // namespace

uint64_t popcorn::interruptedStackPointer(const void *Kernel) {
  const ucontext_t *K = static_cast<const ucontext_t *>(Kernel);
#if defined(__x86_64__)
  return uint64_t(K->uc_mcontext.gregs[REG_RSP]);
#else
  return K->uc_mcontext.sp;
#endif
}

extern "C" void __popcorn_signal_stack(const void *Kernel, stack_t *Out) {
  const ucontext_t *K = static_cast<const ucontext_t *>(Kernel);
  if (!popcorn::node().Remote) {
    *Out = K->uc_stack;
    return;
  }
  popcorn::KernelStack S = popcorn::programStackFor(popcorn::interruptedStackPointer(Kernel));
  *Out = {reinterpret_cast<void *>(S.Sp), S.Flags, S.Size};
}

extern "C" void *__popcorn_program_context(void *Kernel, void *Buffer) {
#if defined(__x86_64__)
  const ucontext_t *K = static_cast<const ucontext_t *>(Kernel);
  Aarch64Context *P = static_cast<Aarch64Context *>(Buffer);
  memset(P, 0, sizeof *P);
  P->Flags = K->uc_flags;
  __popcorn_signal_stack(Kernel, &P->Stack);
  memcpy(P->Mask, &K->uc_sigmask, 8);
  const greg_t *R = K->uc_mcontext.gregs;
  P->Machine.FaultAddress = uint64_t(R[REG_CR2]);
  for (unsigned I = 0; I < 16; I++)
    P->Machine.Regs[I] = uint64_t(R[DwarfOrder[I]]);
  P->Machine.Regs[FramePointer] = uint64_t(R[REG_RBP]);
  P->Machine.Sp = uint64_t(R[REG_RSP]);
  P->Machine.Pc = uint64_t(R[REG_RIP]);
  return P;
#else
  (void)Buffer;
  return Kernel;
#endif
}

extern "C" void __popcorn_kernel_context(void *Kernel, const void *Program) {
#if defined(__x86_64__)
  ucontext_t *K = static_cast<ucontext_t *>(Kernel);
  const Aarch64Context *P = static_cast<const Aarch64Context *>(Program);
  memcpy(&K->uc_sigmask, P->Mask, 8);
  greg_t *R = K->uc_mcontext.gregs;
  for (unsigned I = 0; I < 16; I++)
    R[DwarfOrder[I]] = greg_t(P->Machine.Regs[I]);
  R[REG_RSP] = greg_t(P->Machine.Sp);
  R[REG_RIP] = greg_t(P->Machine.Pc);
#else
  (void)Kernel;
  (void)Program;
#endif
}
