// MIGRATE-MIN: 6
/* A stack overflow of the main thread, on every node: caught by a handler
 * on the alternate signal stack, left with siglongjmp (also to a sigsetjmp
 * made on the other ISA, before the thread moved), and recognised as an
 * overflow the way gnulib's c-stack does it (GNU m4, diff, ...): the fault
 * address lies below the mapping of /proc/self/maps that holds the stack,
 * nearer to it than to the mapping below.  /proc/self/maps is home's on
 * every node, and the thread's stack is at home's addresses there, so a
 * stack noted at home (gnulib notes it when it installs its handler) is
 * the one that overflows on every node. */
#include <fcntl.h>
#include <popcorn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char alt_stack[1 << 16];
static sigjmp_buf back;
static volatile uintptr_t stack_marker, noted_marker;
static volatile int recognised;
static volatile long move_at = -1; /* the depth at which recurse moves */
static volatile int move_to;

/* The start of the mapping holding Address and the end of the one below it,
 * from /proc/self/maps; 0 if none holds it. */
static int find_mapping(uintptr_t address, uintptr_t *start, uintptr_t *below_end)
{
	static char buf[1 << 16];
	int fd = open("/proc/self/maps", O_RDONLY);
	if (fd < 0)
		return 0;
	size_t used = 0;
	for (ssize_t got; used < sizeof buf - 1 && (got = read(fd, buf + used, sizeof buf - 1 - used)) > 0;)
		used += (size_t)got;
	close(fd);
	buf[used] = 0;
	uintptr_t previous_end = 0;
	for (char *line = buf; *line;) {
		char *end;
		uintptr_t low = strtoul(line, &end, 16), high = strtoul(end + 1, &end, 16);
		if (address >= low && address < high) {
			*start = low;
			*below_end = previous_end;
			return 1;
		}
		previous_end = high;
		char *next = strchr(line, '\n');
		if (!next)
			break;
		line = next + 1;
	}
	return 0;
}

static void on_overflow(int sig, siginfo_t *info, void *context)
{
	uintptr_t start, below_end, fault = (uintptr_t)info->si_addr;
	recognised = find_mapping(stack_marker, &start, &below_end) && fault < start &&
		     start - fault <= (start - below_end) / 2;
	siglongjmp(back, 1);
}

/* Each level keeps its argument and a return address on the native stack. */
__attribute__((noinline)) static long recurse(long depth, volatile long *sink)
{
	*sink += depth;
	if (depth == move_at)
		popcorn_migrate(move_to);
	return recurse(depth + 1, sink) + *sink;
}

/* Noted is where the stack was seen before, or 0 to take it here. */
__attribute__((noinline)) static void overflow(const char *where, uintptr_t noted)
{
	char marker;
	stack_marker = noted ? noted : (uintptr_t)&marker;
	volatile long sink = 0;
	recognised = -1;
	if (!sigsetjmp(back, 1))
		recurse(0, &sink);
	printf("%s: overflow caught, recognised as one: %d\n", where, recognised);
}

/* The sigsetjmp here, the overflow on NODE: the thread moves 100 frames
 * down, and the handler there jumps back to a frame that was here. */
__attribute__((noinline)) static void overflow_away(const char *where, int node)
{
	move_at = 100;
	move_to = node;
	overflow(where, 0);
	move_at = -1;
	popcorn_migrate(0);
}

int main(void)
{
	stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_ONSTACK | SA_SIGINFO | SA_NODEFER;
	if (sigaltstack(&ss, 0) || sigaction(SIGSEGV, &sa, 0)) {
		perror("sigaltstack");
		return 1;
	}
	/* Noted at home, before any overflow there grew home's stack to its
	 * limit: as m4's tests do it. */
	char noted; /* its address only: on the native stack */
	noted_marker = (uintptr_t)&noted;
	popcorn_migrate(2);
	overflow("x86-64 process, stack noted at home", noted_marker);
	popcorn_migrate(1);
	overflow("aarch64 process, stack noted at home", noted_marker);
	popcorn_migrate(0);
	overflow("home", 0);
	popcorn_migrate(2);
	overflow("x86-64 process", 0);
	popcorn_migrate(1);
	overflow("aarch64 process", 0);
	popcorn_migrate(0);
	overflow("home again", 0);
	overflow_away("set at home, caught on aarch64", 1);
	overflow_away("set at home, caught in an x86-64 process", 2);
	popcorn_migrate(1);
	overflow_away("set on aarch64, caught at home", 0);
	return 0;
}
