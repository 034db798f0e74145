/* A SIGSEGV handler for the tests of protections away from home: it counts
 * the fault and opens the page up (as a collector's write barrier does),
 * or maps it anew where the program unmapped it, and the access goes on. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

static volatile int faults;

static void open_up(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	(void)context;
	faults++;
	void *page = (void *)((uintptr_t)info->si_addr & ~(uintptr_t)4095);
	if (mprotect(page, 4096, PROT_READ | PROT_WRITE))
		mmap(page, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

static void open_up_on_faults(void)
{
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_sigaction = open_up;
	action.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &action, 0);
}
