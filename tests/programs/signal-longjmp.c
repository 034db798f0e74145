// POPCORN-MIGRATE-EVERY: 1
/* longjmp (not siglongjmp) out of a SIGSEGV handler, as gnulib's sigsegv
 * tests do: the walk from the handler cannot reach the thread's base
 * through the kernel's signal frame, and the jump must still land. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static jmp_buf env;

static void handler(int sig)
{
	longjmp(env, sig);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, 0);
	for (int round = 0; round < 3; round++) {
		int r = setjmp(env);
		if (r == 0) {
			volatile int *p = 0;
			*p = round;
		}
		printf("round %d: back with signal %d\n", round, r);
	}
	return 0;
}
