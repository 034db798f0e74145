// POPCORN-SELFTEST-EVERY: 997
// POPCORN-MIGRATE-NODES: 1,0, most points are in a second thread, which cannot move yet (ENOTSUP)
// POPCORN-MIGRATE-RANDOM: 1
/* Handlers on the alternate signal stack (sigaltstack, SA_ONSTACK), as
 * stack-overflow handlers use them (gnulib's c-stack and sigsegv, and
 * their configure probes): a handler's locals are in the alternate stack,
 * sigaction reports the handler and flags it was given, the context's
 * stack pointer and fault address are the interrupted code's, and a native
 * stack overflow is caught there twice in a row, left with siglongjmp.
 * The overflow is a thread's, on a small stack: the main thread's limit
 * (RLIMIT_STACK) does not bound the stack qemu-user gives it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <ucontext.h>

static char alt_stack[1 << 16], thread_alt_stack[1 << 16];
static volatile int local_on_alt_stack = -1;
static sigjmp_buf recovery;
static volatile int overflows;
static volatile uintptr_t context_sp, context_fault;

/* The interrupted code's stack pointer and fault address, as the program
 * reads them on its ISA.  popcorn-clang defines no ISA's macros; its
 * ucontext_t is aarch64's on every ISA (the C ABI is aarch64's). */
static void note_context(void *context)
{
	ucontext_t *uc = context;
#if defined(__aarch64__) || defined(__popcorn__)
	context_sp = uc->uc_mcontext.sp;
	context_fault = uc->uc_mcontext.fault_address;
#else
	context_sp = uc->uc_mcontext.gregs[REG_RSP];
	context_fault = uc->uc_mcontext.gregs[REG_CR2];
#endif
}

static int near(uintptr_t a, uintptr_t b, uintptr_t distance)
{
	return a - b <= distance || b - a <= distance;
}

/* Not inlined: its argument is the address of a caller's local. */
__attribute__((noinline)) static void note_local(volatile char *local)
{
	local_on_alt_stack = (local >= alt_stack && local < alt_stack + sizeof alt_stack) ||
			     (local >= thread_alt_stack && local < thread_alt_stack + sizeof thread_alt_stack);
}

static void plain_handler(int sig)
{
	volatile char local = (char)sig;
	note_local(&local);
}

static void siginfo_handler(int sig, siginfo_t *info, void *context)
{
	volatile char local = (char)(sig + (info->si_signo != sig));
	note_local(&local);
	note_context(context);
}

static void overflow_handler(int sig, siginfo_t *info, void *context)
{
	volatile char local = (char)sig;
	note_local(&local);
	note_context(context);
	/* gnulib's test of a stack overflow: the fault is next to the stack
	 * pointer. */
	printf("overflow: fault address is si_addr %d, stack pointer next to it %d\n",
	       context_fault == (uintptr_t)info->si_addr,
	       near(context_sp, (uintptr_t)info->si_addr, 4096));
	overflows++;
	siglongjmp(recovery, 1);
}

static void install(int sig, void (*handler)(int), void (*action)(int, siginfo_t *, void *),
		    int flags)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	if (action)
		sa.sa_sigaction = action;
	else
		sa.sa_handler = handler;
	sa.sa_flags = flags;
	if (sigaction(sig, &sa, 0) || sigaction(sig, 0, &old)) {
		perror("sigaction");
		return;
	}
	/* What the program set, not how libc installed it. */
	int same = action ? old.sa_sigaction == action : old.sa_handler == handler;
	printf("signal %d: handler reported back %s, SA_SIGINFO %d, SA_ONSTACK %d\n", sig,
	       same ? "unchanged" : "CHANGED", !!(old.sa_flags & SA_SIGINFO),
	       !!(old.sa_flags & SA_ONSTACK));
}

static void raise_and_report(const char *what, int sig)
{
	local_on_alt_stack = -1;
	raise(sig);
	printf("%s: local on the alternate stack: %d\n", what, local_on_alt_stack);
}

/* An unused local whose address is taken as an integer is on the native
 * stack (gnulib finds its stack's mapping so): the interrupted stack
 * pointer in the handler's context is next to it. */
__attribute__((noinline)) static void report_context_sp(const char *what, int sig)
{
	char marker;
	uintptr_t native = (uintptr_t)&marker;
	context_sp = 0;
	raise(sig);
	printf("%s: context's stack pointer next to the caller's frame: %d\n", what,
	       near(context_sp, native, 16384));
}

/* Each level keeps its argument and a return address on the native
 * stack: nothing of its own on the object stack. */
__attribute__((noinline)) static long recurse(long depth, volatile long *sink)
{
	*sink += depth;
	return recurse(depth + 1, sink) + *sink;
}

/* Each alternate stack is its thread's. */
static void *overflow_twice(void *unused)
{
	stack_t ss = {.ss_sp = thread_alt_stack, .ss_size = sizeof thread_alt_stack, .ss_flags = 0};
	if (sigaltstack(&ss, 0)) {
		perror("sigaltstack");
		return 0;
	}
	install(SIGSEGV, 0, overflow_handler, SA_ONSTACK | SA_SIGINFO | SA_NODEFER);
	volatile long sink = 0;
	for (int round = 1; round <= 2; round++) {
		local_on_alt_stack = -1;
		if (!sigsetjmp(recovery, 1))
			recurse(0, &sink);
		printf("overflow %d caught (%d in all), handler's local on the alternate stack: %d\n",
		       round, overflows, local_on_alt_stack);
	}
	return unused;
}

int main(void)
{
	stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
	if (sigaltstack(&ss, 0)) {
		perror("sigaltstack");
		return 1;
	}
	install(SIGUSR1, plain_handler, 0, SA_ONSTACK);
	raise_and_report("SA_ONSTACK", SIGUSR1);
	install(SIGUSR2, 0, siginfo_handler, SA_ONSTACK | SA_SIGINFO);
	raise_and_report("SA_ONSTACK|SA_SIGINFO", SIGUSR2);
	report_context_sp("SA_ONSTACK|SA_SIGINFO", SIGUSR2);
	install(SIGUSR2, 0, siginfo_handler, SA_SIGINFO);
	raise_and_report("SA_SIGINFO", SIGUSR2);
	report_context_sp("SA_SIGINFO", SIGUSR2);
	install(SIGUSR1, plain_handler, 0, 0);
	raise_and_report("no SA_ONSTACK", SIGUSR1);

	pthread_attr_t attr;
	pthread_t thread;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 << 10);
	if (pthread_create(&thread, &attr, overflow_twice, 0) || pthread_join(thread, 0)) {
		printf("no thread\n");
		return 1;
	}
	return 0;
}
