// MIGRATE-MIN: 4
/* Processes made by a thread of a program of several threads, from a node:
 * fork (the child, a copy of the calling thread alone, moves on nodes of
 * its own), posix_spawnp and popen bring the thread home first, while
 * another thread waits on a condition variable for it; then a thread on a
 * node execs the program again while the main thread waits to join it, and
 * the program exec'd (one thread) moves and prints.  The migrations the
 * test counts are that program's; the threads before it print a line
 * where a move they made did not take them (a run with nodes to go to
 * differs then from one without). */
#include <popcorn.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"

extern char **environ;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int done;

static void go(int node)
{
	if (popcorn_migrate(node) != 0 && popcorn_num_nodes() > 1)
		printf("not moved to node %d\n", node);
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!done)
		pthread_cond_wait(&changed, &lock);
	pthread_mutex_unlock(&lock);
	return 0;
}

static void *spawner(void *arg)
{
	(void)arg;
	for (int node = 2; node >= 1; node--) {
		go(node);
		fflush(stdout);
		pid_t child = fork();
		if (child == 0) {
			long s = 0;
			for (int i = 0; i < 4; i++) {
				go(node);
				s += work(i);
				popcorn_migrate(0);
			}
			_exit((int)(s % 100));
		}
		go(node);
		printf("node %d: forked child status %d\n", node, status_of(child));
		fflush(stdout);
		char *echo[] = {"echo", "spawned", NULL};
		int error = posix_spawnp(&child, "echo", NULL, NULL, echo, environ);
		go(node);
		printf("node %d: posix_spawnp %d, status %d\n", node, error, status_of(child));
		FILE *p = popen("echo piped", "r");
		go(node);
		char line[64] = "";
		if (p && fgets(line, sizeof line, p))
			line[strcspn(line, "\n")] = 0;
		printf("node %d: popen '%s', pclose %d\n", node, line, p ? WEXITSTATUS(pclose(p)) : -1);
	}
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_signal(&changed);
	pthread_mutex_unlock(&lock);
	return 0;
}

static void *execer(void *arg)
{
	char **argv = arg;
	go(1);
	fflush(stdout);
	char *again[] = {argv[0], "an argument", NULL};
	execv("/proc/self/exe", again);
	perror("execv");
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc > 1) { /* the program exec'd at the end */
		for (int i = 0; i < 2; i++) {
			popcorn_migrate(1);
			popcorn_migrate(2);
		}
		printf("exec'd with %s\n", argv[1]);
		return 0;
	}
	pthread_t threads[2];
	if (pthread_create(&threads[0], 0, waiter, 0) || pthread_create(&threads[1], 0, spawner, 0))
		return 1;
	pthread_join(threads[1], 0);
	pthread_join(threads[0], 0);
	pthread_t last;
	if (pthread_create(&last, 0, execer, argv))
		return 1;
	pthread_join(last, 0);
	return 2; /* not reached: the exec replaced the program */
}
