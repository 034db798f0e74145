/* Signal handlers: signal() and sigaction() with and without SA_SIGINFO,
 * raised synchronously; the handlers only record what they saw, but for
 * one that calls a function with a loop: its migration points find a
 * signal frame on the stack, where the thread cannot move (the rewrite
 * refuses it with that reason), so a move waits for a point after the
 * handler returns.  musl's signal return trampoline (__restore_rt) must
 * have one address on both ISAs for this program to link at all. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t plain, with_info, info_code;

static void on_usr1(int s) { plain = s; }

static volatile long handler_sum;

__attribute__((noinline)) static long sum_below(int n)
{
	long sum = 0;
	for (int i = 0; i < n; i++)
		sum += (long)i * i % 7;
	return sum;
}

static void on_usr1_calling(int s) { handler_sum += sum_below(1000 * s); }

static void on_usr2(int s, siginfo_t *info, void *context)
{
	(void)context;
	with_info = s;
	info_code = info->si_signo;
}

int main(void)
{
	if (signal(SIGUSR1, on_usr1) == SIG_ERR)
		return 1;
	raise(SIGUSR1);
	printf("signal(): handler saw %s\n", plain == SIGUSR1 ? "SIGUSR1" : "something else");

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR2, &sa, 0))
		return 2;
	raise(SIGUSR2);
	printf("sigaction(SA_SIGINFO): signal %s, si_signo %s\n",
	       with_info == SIGUSR2 ? "SIGUSR2" : "wrong", info_code == SIGUSR2 ? "SIGUSR2" : "wrong");

	sa.sa_handler = on_usr1;
	sa.sa_flags = 0;
	plain = 0;
	sigaction(SIGUSR1, &sa, 0);
	raise(SIGUSR1);
	printf("sigaction(): handler saw %s\n", plain == SIGUSR1 ? "SIGUSR1" : "something else");

	signal(SIGUSR1, on_usr1_calling);
	for (int i = 0; i < 20; i++)
		raise(SIGUSR1);
	printf("a handler that calls: sum %ld\n", handler_sum);
	return 0;
}
