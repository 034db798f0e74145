// MIGRATE-MIN: 8
/* Signals across nodes: a handler set at home runs for a signal raised on
 * aarch64 (node 1) and on another x86-64 process (node 2); one set away
 * runs at home; a signal blocked away stays blocked at home (the mask
 * travels with the thread) and is delivered where it is unblocked; a
 * timer set away (alarm, setitimer: the process's, kept at home) fires
 * at home, its signal waiting while the thread is away; sigsuspend() away
 * waits at home, where the signal arrives; a signal another process sends
 * while the thread is away reaches the handler once it is home; so does
 * one sent to the process group (the terminal's SIGINT, kill(0, ...)),
 * once: the nodes are not in the program's process group.  A signal that
 * arrives at home while the thread is away runs its handler there: it
 * interrupts a sleep (the alarm set before the move; the sleep returns
 * EINTR after the handler ran, as at home; its handler set at home or
 * away) and a read of a pipe, which
 * waits at home (an action without SA_RESTART), and signals sent all the
 * while the thread fetches pages and forwards calls wait for those to
 * end, not corrupt them; a SIGPIPE a forwarded write raises at home runs
 * its handler before the write returns; a SIGTERM the thread blocks away
 * from home (no handler: it would end the program) waits, pending. */
#include <errno.h>
#include <fcntl.h>
#include <popcorn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t usr1, usr2, alarms;
/* One page: the node writes spins while the handler would write terms. */
static volatile struct {
	sig_atomic_t terms;
	long spins;
} shared;
static void on_usr1(int s) { usr1 += s == SIGUSR1; }
static void on_usr2(int s) { usr2 += s == SIGUSR2; }
static void on_alarm(int s) { alarms += s == SIGALRM; }
static void on_term(int s) { shared.terms += s == SIGTERM; }
static volatile sig_atomic_t pipes;
static void on_pipe(int s) { pipes += s == SIGPIPE; }
static volatile sig_atomic_t hups;
static void on_hup(int s) { hups += s == SIGHUP; }

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int blocked(int s)
{
	sigset_t set;
	sigprocmask(SIG_BLOCK, 0, &set);
	return sigismember(&set, s);
}

int main(void)
{
	/* A group of its own, for kill(0, ...) below: not the test runner's. */
	setpgid(0, 0);
	signal(SIGUSR1, on_usr1);
	popcorn_migrate(1);
	raise(SIGUSR1);
	popcorn_migrate(2);
	raise(SIGUSR1);
	popcorn_migrate(0);
	printf("a handler set at home ran %d times away\n", usr1);

	popcorn_migrate(1);
	struct sigaction sa = {.sa_handler = on_usr2};
	sigaction(SIGUSR2, &sa, 0);
	popcorn_migrate(0);
	raise(SIGUSR2);
	printf("a handler set away ran %d times at home\n", usr2);

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	popcorn_migrate(2);
	sigprocmask(SIG_BLOCK, &set, 0);
	raise(SIGUSR2);
	sigset_t pending;
	sigemptyset(&pending);
	sigpending(&pending);
	printf("blocked away: pending there (sigpending: %d), handler ran %d times\n",
	       sigismember(&pending, SIGUSR2), usr2);
	popcorn_migrate(0);
	printf("at home: still blocked %d, handler ran %d times\n", blocked(SIGUSR2), usr2);
	sigprocmask(SIG_UNBLOCK, &set, 0);
	printf("unblocked at home: handler ran %d times\n", usr2);

	/* SIGALRM blocked while the loop checks: with pause(), an alarm that
	 * came after the check and before the pause (the thread's whole trip
	 * home, under load) left it waiting for ever, as it would at home. */
	signal(SIGALRM, on_alarm);
	sigset_t alarm_set, before;
	sigemptyset(&alarm_set);
	sigaddset(&alarm_set, SIGALRM);
	popcorn_migrate(1);
	sigprocmask(SIG_BLOCK, &alarm_set, &before);
	struct itimerval it = {{0, 0}, {0, 20000}}, left;
	if (setitimer(ITIMER_REAL, &it, 0))
		perror("setitimer away");
	if (getitimer(ITIMER_REAL, &left))
		perror("getitimer away");
	printf("a timer set away is running: %d\n", left.it_value.tv_sec || left.it_value.tv_usec);
	while (!alarms)
		sigsuspend(&before); /* at home: popcorn-clang sends the thread there first */
	sigprocmask(SIG_SETMASK, &before, 0);
	printf("its signal reached the handler %d time(s)\n", alarms);
	popcorn_migrate(2);
	alarm(1);
	unsigned was = alarm(0);
	popcorn_migrate(0);
	printf("alarm away: %u second(s) left when cancelled\n", was);

	/* Sent by another process while the thread is away: the handler runs
	 * where the thread is, not on home's serving loop (where its write
	 * would be lost under the node's copy of the page). */
	signal(SIGTERM, on_term);
	pid_t parent = getpid(), child = fork();
	if (child == 0) {
		usleep(100000);
		kill(parent, SIGTERM);
		_exit(0);
	}
	popcorn_migrate(2);
	for (double start = seconds(); seconds() - start < 0.4;)
		shared.spins++;
	popcorn_migrate(0);
	while (!shared.terms)
		pause();
	waitpid(child, 0, 0);
	printf("a signal sent while away reached its handler %d time(s)\n", shared.terms);

	signal(SIGHUP, on_hup);
	popcorn_migrate(2);
	kill(0, SIGHUP);
	popcorn_migrate(1);
	kill(0, SIGHUP);
	popcorn_migrate(0);
	printf("two signals to the process group sent away reached the handler %d time(s)\n",
	       hups);

	static const int away[] = {1, 2};
	for (int i = 0; i < 2; i++) {
		alarms = 0;
		alarm(1);
		popcorn_migrate(away[i]);
		struct timespec nap = {1000, 0};
		int slept = nanosleep(&nap, &nap), error = errno, handled = alarms;
		popcorn_migrate(0);
		printf("an alarm interrupted a sleep away: %d, EINTR %d, handler first %d, "
		       "time left %d\n",
		       slept, error == EINTR, handled, nap.tv_sec > 990 && nap.tv_sec <= 1000);
	}

	/* Home watches those signals with a descriptor of its own: not one the
	 * program gets. */
	popcorn_migrate(2);
	int next = open("/dev/null", O_RDONLY);
	popcorn_migrate(0);
	printf("the next descriptor away: %d\n", next);
	close(next);

	struct sigaction interrupting = {.sa_handler = on_alarm}; /* no SA_RESTART */
	for (int i = 0; i < 2; i++) {
		signal(SIGALRM, SIG_DFL);
		alarms = 0;
		popcorn_migrate(away[i]);
		sigaction(SIGALRM, &interrupting, 0);
		alarm(1);
		struct timespec nap = {1000, 0};
		int slept = nanosleep(&nap, &nap), error = errno, handled = alarms;
		popcorn_migrate(0);
		printf("an alarm whose handler was set away interrupted a sleep there: %d, EINTR %d, "
		       "handler first %d\n",
		       slept, error == EINTR, handled);
	}
	int idle[2];
	pipe(idle); /* no one writes it */
	for (int i = 0; i < 2; i++) {
		alarms = 0;
		alarm(1);
		popcorn_migrate(away[i]);
		char c;
		ssize_t got = read(idle[0], &c, 1);
		int error = errno, handled = alarms;
		popcorn_migrate(0);
		printf("an alarm interrupted a read of a pipe away: %zd, EINTR %d, handler first %d\n",
		       got, error == EINTR, handled);
	}

	/* Signals every millisecond while the thread reads 16 MiB home wrote
	 * (page requests) and makes calls home runs (forwarded). */
	size_t bytes = 16 << 20;
	unsigned char *data = malloc(bytes);
	for (int i = 0; i < 2; i++) {
		memset(data, i + 1, bytes);
		usr1 = 0;
		pid_t sender = fork();
		if (sender == 0) {
			for (;;) {
				kill(parent, SIGUSR1);
				usleep(1000);
			}
		}
		popcorn_migrate(away[i]);
		unsigned long sum = 0;
		int calls = 0;
		for (size_t at = 0; at < bytes; at += 4096) {
			sum += data[at];
			calls += getppid() > 0;
		}
		while (!usr1)
			calls += getppid() > 0;
		popcorn_migrate(0);
		kill(sender, SIGKILL);
		waitpid(sender, 0, 0);
		printf("signals while fetching and calling: sum right %d, calls %d, handler ran %d\n",
		       sum == (bytes / 4096) * (unsigned long)(i + 1), calls >= 4096, usr1 > 0);
	}
	free(data);

	/* SIGPIPE from a forwarded write: its handler has run when the write
	 * returns EPIPE, every time (it came after, now and then). */
	signal(SIGPIPE, on_pipe);
	for (int i = 0; i < 2; i++) {
		popcorn_migrate(away[i]);
		int ran_first = 0;
		for (int k = 0; k < 50; k++) {
			int ends[2];
			if (pipe(ends))
				break;
			close(ends[0]);
			pipes = 0;
			ran_first += write(ends[1], "x", 1) == -1 && errno == EPIPE && pipes == 1;
			close(ends[1]);
		}
		popcorn_migrate(0);
		printf("SIGPIPE of a write: handler ran first %d times of 50\n", ran_first);
	}

	/* SIGTERM blocked away from home, with its default action (which
	 * ends the program): sent meanwhile, it waits, pending. */
	signal(SIGTERM, SIG_DFL);
	for (int i = 0; i < 2; i++) {
		int go[2];
		if (pipe(go))
			break;
		fflush(stdout);
		pid_t sender = fork();
		if (sender == 0) { /* sends once the thread has blocked it */
			char c;
			if (read(go[0], &c, 1) == 1)
				kill(parent, SIGTERM);
			_exit(0);
		}
		popcorn_migrate(away[i]);
		sigset_t term, pending;
		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		sigprocmask(SIG_BLOCK, &term, 0);
		write(go[1], "x", 1);
		waitpid(sender, 0, 0);
		close(go[0]);
		close(go[1]);
		usleep(50000);
		popcorn_migrate(0);
		sigpending(&pending);
		int waited = sigismember(&pending, SIGTERM);
		signal(SIGTERM, SIG_IGN); /* discarded */
		sigprocmask(SIG_UNBLOCK, &term, 0);
		signal(SIGTERM, SIG_DFL);
		printf("SIGTERM blocked away from home: pending %d\n", waited);
	}
	return 0;
}
