// MIGRATE-MIN: 4
/* Handlers with SA_RESETHAND run once, wherever the signal comes: the
 * action they reset is SIG_DFL for the program's sigaction on every node
 * and after the thread moves (m4's test-sigaction).  Raised away from
 * home and asked there and at home; raised at home after a trip away
 * (home's copy of the actions had the handler) and raised again away;
 * SIGSEGV's, whose action a node keeps apart. */
#include <popcorn.h>
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t runs, segv_runs;
static void on_urg(int s) { runs += s == SIGURG; }
static void on_segv(int s) { segv_runs += s == SIGSEGV; }

static void set_once(int s, void (*handler)(int))
{
	struct sigaction sa = {0};
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESETHAND;
	sigaction(s, &sa, 0);
}

/* 1 if s's action is SIG_DFL. */
static int is_default(int s)
{
	struct sigaction sa;
	sigaction(s, 0, &sa);
	return sa.sa_handler == SIG_DFL;
}

int main(void)
{
	for (int node = 1; node <= 2; node++) {
		/* SIGURG's default is to ignore it: raised again, nothing runs. */
		set_once(SIGURG, on_urg);
		runs = 0;
		popcorn_migrate(node);
		raise(SIGURG);
		int away = is_default(SIGURG);
		raise(SIGURG);
		popcorn_migrate(0);
		int home = is_default(SIGURG);
		raise(SIGURG);
		printf("node %d: raised away: runs %d, default away %d, at home %d\n", node,
		       (int)runs, away, home);

		set_once(SIGURG, on_urg);
		runs = 0;
		popcorn_migrate(node);
		popcorn_migrate(0);
		raise(SIGURG);
		popcorn_migrate(node);
		raise(SIGURG);
		away = is_default(SIGURG);
		popcorn_migrate(0);
		printf("node %d: raised at home: runs %d, default away %d\n", node, (int)runs, away);

		set_once(SIGSEGV, on_segv);
		segv_runs = 0;
		popcorn_migrate(node);
		raise(SIGSEGV);
		away = is_default(SIGSEGV);
		popcorn_migrate(0);
		printf("node %d: SIGSEGV raised away: runs %d, default away %d, at home %d\n", node,
		       (int)segv_runs, away, is_default(SIGSEGV));
	}
	return 0;
}
