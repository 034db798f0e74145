// POPCORN-MIGRATE-EVERY: 1
// POPCORN-MIGRATE-NODES: 2,1, the cases must run away from home: the thread never comes back
/* A program's SIGSEGV sent to itself, whichever node its thread is on:
 * while the handler runs SIGSEGV is blocked (without SA_NODEFER), so one
 * raised there waits for the handler to return, as gnulib's c-stack does
 * after "program error"; with SA_NODEFER it runs the handler again at
 * once; ignored, it does nothing.  Away from home SIGSEGV also brings
 * pages in, so the runtime cannot block it and keeps these rules itself.
 * Each case runs four times while the thread moves between the two other
 * nodes (x86-64 and aarch64).  And a value aligned beyond the native
 * stack's 16 bytes lives across the moves. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile int depth, calls, raise_inside;
static char trace[64];
static volatile int traced;

static void note(char c)
{
	if (traced < (int)sizeof trace - 1)
		trace[traced++] = c;
}

static void handler(int sig)
{
	depth++;
	calls++;
	note('0' + depth);
	if (raise_inside) {
		raise_inside = 0;
		raise(sig);
		note('r');
	}
	note('x');
	depth--;
}

static void install(void (*h)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigaction(SIGSEGV, &sa, 0);
}

__attribute__((noinline)) static void raise_case(const char *what, void (*h)(int), int flags,
						 int inside)
{
	install(h, flags);
	calls = 0;
	traced = 0;
	raise_inside = inside;
	raise(SIGSEGV);
	trace[traced] = 0;
	printf("%s: handler ran %d times, order %s\n", what, calls, trace);
}

typedef long wide __attribute__((vector_size(32)));

__attribute__((noinline)) static long shift(long x)
{
	return x << 1;
}

/* w crosses calls in a slot of its own: aligned to at most 16 bytes, so
 * the frame keeps a fixed layout that a move can rewrite. */
__attribute__((noinline)) static long wide_across_calls(long seed)
{
	wide w = {seed, seed + 1, seed + 2, seed + 3};
	long a = shift(seed);
	w += (wide){a, a, a, a};
	long b = shift(a);
	w *= (wide){b, 1, b, 1};
	return w[0] + w[1] + w[2] + w[3] + shift(b);
}

int main(void)
{
	for (int round = 0; round < 4; round++) {
		printf("round %d\n", round);
		raise_case("raised in the handler", handler, 0, 1);
		raise_case("raised in the handler, SA_NODEFER", handler, SA_NODEFER, 1);
		raise_case("raised once", handler, SA_RESETHAND, 0);
		install(SIG_IGN, 0);
		raise(SIGSEGV);
		printf("ignored: still running\n");
		printf("wide values across calls: %ld\n", wide_across_calls(round + 10));
	}
	return 0;
}
