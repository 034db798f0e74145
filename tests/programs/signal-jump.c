// POPCORN-MIGRATE-EVERY: 1 2
/* A SIGSEGV handler with SA_SIGINFO on an alternate signal stack that calls
 * functions and leaves with siglongjmp, as gnulib's c-stack and sigsegv
 * modules do (m4).  The handler's migration point walks the stack up to the
 * kernel's signal frame (POPCORN_CHECK_UNWIND used to abort there: musl's
 * __restore_rt, the frame's return address, is no call site); the object
 * stack is back where sigsetjmp left it after each jump. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf env;
static volatile int hits;
static char altstack[65536];

static __attribute__((noinline)) int describe(char *out, size_t size, int sig, const siginfo_t *si)
{
	return snprintf(out, size, "signal %d, si_signo %d, address %s", sig, si->si_signo,
			si->si_addr ? "set" : "null");
}

static void on_segv(int sig, siginfo_t *si, void *context)
{
	char text[96];
	(void)context;
	describe(text, sizeof text, sig, si);
	hits++;
	if (hits < 4)
		siglongjmp(env, hits);
	puts(text);
	siglongjmp(env, 100);
}

static __attribute__((noinline)) int deep(int n, volatile int *p)
{
	int v[8];
	for (int i = 0; i < 8; i++)
		v[i] = n + i;
	if (n == 0)
		return *p + v[3];
	return deep(n - 1, p) + v[n % 8];
}

int main(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
	if (sigaltstack(&ss, 0))
		return 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, 0))
		return 2;
	long total = 0;
	for (int round = 0; round < 6; round++) {
		char before[32];
		snprintf(before, sizeof before, "round %d", round);
		int r = sigsetjmp(env, 1);
		if (r == 0) {
			total += deep(20 + round, (volatile int *)0);
			puts("no fault?");
		} else {
			printf("%s: back from the handler with %d\n", before, r);
			total += r;
		}
	}
	sigset_t mask;
	sigprocmask(SIG_BLOCK, 0, &mask);
	printf("total %ld, %d faults, SIGSEGV %s\n", total, hits,
	       sigismember(&mask, SIGSEGV) ? "blocked" : "unblocked");
	return 0;
}
