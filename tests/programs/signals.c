/* Signal handlers: signal() and sigaction() with and without SA_SIGINFO,
 * raised synchronously; the handlers only record what they saw.  musl's
 * signal return trampoline (__restore_rt) must have one address on both
 * ISAs for this program to link at all. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t plain, with_info, info_code;

static void on_usr1(int s) { plain = s; }

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
	return 0;
}
